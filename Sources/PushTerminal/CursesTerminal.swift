import CNCursesW
import Glibc
import PushRender
import PushUI

/// Errors starting the curses session.
public enum TerminalError: Error, CustomStringConvertible, Equatable {
  /// `newterm` failed although terminfo knows the type.
  case cannotStart(term: String)
  /// `TERM` is not set (or empty).
  case termUnset
  /// `TERM` names a terminal that cannot move the cursor (`dumb`, a hardcopy terminal).
  case termCannotDraw(term: String)
  /// `TERM` names a type terminfo does not know.
  case termUnknown(term: String)
  /// There is no terminfo database to look `TERM` up in.
  case noTerminfo(term: String)
  /// The locale's character set is not UTF-8, so the screen's symbols cannot be written.
  case notUTF8(codeset: String)

  /// What to set, for the messages.
  static let suggestion = "set it to your terminal's type, e.g. TERM=xterm-256color (or TERM=tmux-256color in tmux)"

  /// A message for the user.
  public var description: String {
    switch self {
    case .cannotStart(let term):
      "cannot start the terminal UI with TERM=\(term); is this a terminal? If it is, \(Self.suggestion)"
    case .termUnset:
      "TERM is not set, so the terminal's type is unknown; \(Self.suggestion)"
    case .termCannotDraw(let term):
      "TERM=\(term) is a terminal that cannot move the cursor, so the screen cannot be drawn; \(Self.suggestion)"
    case .termUnknown(let term):
      "TERM=\(term) is not a terminal type this system knows (no terminfo entry); \(Self.suggestion)"
    case .noTerminfo(let term):
      "no terminfo database to look up TERM=\(term) in; install ncurses-base (or ncurses-term), or \(Self.suggestion)"
    case .notUTF8(let codeset):
      "the locale's character set is \(codeset), not UTF-8, so the screen's symbols cannot be shown; "
        + "set a UTF-8 locale, e.g. LANG=C.UTF-8 (or en_US.UTF-8)"
    }
  }
}

/// The ncursesw backend: shows ``CellGrid``s and reads keys.
///
/// `@MainActor` on purpose: ncurses is not thread-safe, and the compiler then guarantees every
/// call comes from one thread. Call ``restore()`` before exiting; the runtime does so on `q`,
/// SIGINT, SIGTERM and SIGHUP (delivered through ``SignalWatcher`` as input events).
@MainActor
public final class CursesTerminal: TerminalScreen, InputSource {
  /// What colours the session uses.
  public let colorCapability: ColorCapability
  private let screen: OpaquePointer
  private let window: UnsafeMutablePointer<WINDOW>
  private let signals: SignalWatcher
  private var colors: ColorAllocator
  private var isActive = true
  /// The grid presented last and the screen size then, so the next frame writes only changes.
  private var lastPresented: (grid: CellGrid, screen: Size)?
  /// Reads in a row that were asked to wait and failed at once: a terminal that is gone.
  private var failedReads = 0
  /// How many such reads in a row mean the terminal is gone (a timeout takes its time; a signal
  /// interrupting a read is rare and resets the count with the next key).
  static let failedReadsMeaningHangUp = 50
  /// The files a headless session opened, closed with it.
  private var ownedFiles: [UnsafeMutablePointer<FILE>] = []

  /// Starts a full-screen session on the controlling terminal.
  ///
  /// - Parameters:
  ///   - noColor: draw without colour (`NO_COLOR`).
  ///   - colorTerm: the `COLORTERM` value, used to allow palette-based truecolor.
  ///   - signals: the watcher that turns SIGINT, SIGTERM and SIGHUP into input events.
  public convenience init(noColor: Bool, colorTerm: String?, signals: SignalWatcher) throws(TerminalError) {
    try Self.checkEnvironment()
    guard let output = fdopen(STDOUT_FILENO, "w"), let input = fdopen(STDIN_FILENO, "r") else {
      throw .cannotStart(term: Self.environment("TERM"))
    }
    try self.init(
      output: output, input: input, terminalType: nil, noColor: noColor, colorTerm: colorTerm, signals: signals)
  }

  /// Checks, before anything is started, that this process can draw a screen: `TERM` names a
  /// terminal terminfo knows and that can move the cursor, and the locale is UTF-8 (the screens
  /// draw with symbols such as `·`, `🔒` and box lines, which a `C` locale garbles). Sets the
  /// locale from the environment, as the session needs (wcwidth returns -1 for everything until
  /// it is set, architecture.md 5.3).
  public static func checkEnvironment() throws(TerminalError) {
    setlocale(LC_ALL, "")
    try checkTerminalType(getenv("TERM").map { String(cString: $0) })
    let codeset = String(cString: pushdeck_codeset())
    guard Self.isUTF8(codeset: codeset) else { throw .notUTF8(codeset: codeset) }
  }

  /// Whether a codeset name is UTF-8 (`UTF-8`, `utf8`).
  public nonisolated static func isUTF8(codeset: String) -> Bool {
    let letters = codeset.lowercased().filter { $0.isLetter || $0.isNumber }
    return letters == "utf8"
  }

  /// Refuses a `TERM` that is unset, unknown to terminfo, or names a terminal that cannot move
  /// the cursor (`dumb`).
  public static func checkTerminalType(_ term: String?) throws(TerminalError) {
    guard let term, !term.isEmpty else { throw .termUnset }
    if term == "dumb" { throw .termCannotDraw(term: term) }
    switch pushdeck_terminal_kind(term) {
    case 1: return
    case 2: throw .termCannotDraw(term: term)
    case -1: throw .noTerminfo(term: term)
    default: throw .termUnknown(term: term)
    }
  }

  /// Starts a session that draws into `/dev/null` as a `terminalType` terminal of `size`, for
  /// measuring what presenting a frame costs without a terminal (`pushdeck render --bench`).
  public static func headless(terminalType: String = "xterm-256color", size: Size) -> CursesTerminal? {
    guard setlocale(LC_ALL, "C.UTF-8") != nil || setlocale(LC_ALL, "") != nil,
      let output = fopen("/dev/null", "w")
    else { return nil }
    guard let input = fopen("/dev/null", "r"),
      let terminal = try? CursesTerminal(
        output: output, input: input, terminalType: terminalType, noColor: false, colorTerm: "truecolor",
        signals: SignalWatcher(signals: [], watchesContinue: false))
    else {
      fclose(output)
      return nil
    }
    terminal.ownedFiles = [output, input]
    resizeterm(Int32(size.rows), Int32(size.columns))
    return terminal
  }

  private init(
    output: UnsafeMutablePointer<FILE>, input: UnsafeMutablePointer<FILE>, terminalType: String?, noColor: Bool,
    colorTerm: String?, signals: SignalWatcher
  ) throws(TerminalError) {
    self.signals = signals
    guard let screen = newterm(terminalType, output, input) else {
      throw .cannotStart(term: terminalType ?? Self.environment("TERM"))
    }
    self.screen = screen
    guard let window = pushdeck_stdscr() else {
      endwin()
      throw .cannotStart(term: Self.environment("TERM"))
    }
    self.window = window
    cbreak()
    noecho()
    nonl()
    keypad(window, true)
    set_escdelay(25)
    pushdeck_enable_mouse()
    curs_set(0)
    var colorCount = 0
    if !noColor, has_colors() {
      start_color()
      use_default_colors()
      colorCount = Int(pushdeck_colors())
    }
    let direct = colorCount >= 1 << 24
    let canRedefine = can_change_color() && colorCount >= 256
    var capability = ColorCapability.detect(
      colors: min(colorCount, 256), colorTerm: colorTerm, noColor: noColor,
      canChangeColors: canRedefine)
    if direct { capability = .truecolor }
    colorCapability = capability
    colors = ColorAllocator(
      isDirect: direct, canRedefine: canRedefine && capability == .truecolor,
      maxPairs: Int(pushdeck_color_pairs()))
  }

  /// The terminal's current size.
  public var size: Size {
    Size(columns: Int(getmaxx(window)), rows: Int(getmaxy(window)))
  }

  /// Copies a grid to the screen: each lead cell once, continuation cells skipped, and only the
  /// cells that differ from the grid presented last (ncurses still holds those), unless the
  /// size changed. Runs of one style share one colour-pair look-up; nothing is allocated per cell.
  public func present(_ grid: CellGrid) {
    guard isActive else { return }
    let current = size
    let previous = lastPresented.flatMap { $0.grid.size == grid.size && $0.screen == current ? $0.grid : nil }
    var lastStyle: Style?
    var pair: Int32 = 0
    var attributes: attr_t = 0
    withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: 6) { characters in
      for row in 0..<min(grid.height, current.rows) {
        for column in 0..<min(grid.width, current.columns) {
          let cell = grid[column, row]
          if let previous, previous[column, row] == cell { continue }
          var count = 0
          switch cell.content {
          // Writing into the right half of a wide glyph would leave ncurses with half a glyph.
          case .continuation: continue
          case .blank:
            characters[0] = 0x20
            count = 1
          case .glyph(let glyph, let columns):
            // A wide glyph cut by the screen edge is drawn as a space instead.
            if column + columns > current.columns {
              characters[0] = 0x20
              count = 1
            } else {
              for scalar in glyph.unicodeScalars.prefix(5) {
                characters[count] = wchar_t(bitPattern: scalar.value)
                count += 1
              }
            }
          }
          characters[count] = 0
          if cell.style != lastStyle {
            lastStyle = cell.style
            pair = colors.pair(for: cell.style)
            attributes = self.attributes(of: cell.style)
          }
          var cchar = cchar_t()
          _ = pushdeck_setcchar(&cchar, characters.baseAddress!, attributes, pair)
          mvwadd_wch(window, Int32(row), Int32(column), &cchar)
        }
      }
    }
    lastPresented = (grid, current)
    wnoutrefresh(window)
    doupdate()
  }

  /// Makes the next ``present(_:)`` copy every cell, not only those that changed.
  public func presentWholeNextFrame() { lastPresented = nil }

  /// Waits for a key, a resize or a termination signal.
  public func nextInput(timeoutMilliseconds: Int) -> InputEvent? {
    if let number = signals.takePending() { return .signal(number) }
    if signals.takeContinued() { return resume() }
    let wait = max(0, min(timeoutMilliseconds, 250))
    wtimeout(window, Int32(wait))
    var code: wint_t = 0
    let started = ContinuousClock.now
    let result = wget_wch(window, &code)
    if let number = signals.takePending() { return .signal(number) }
    if signals.takeContinued() { return resume() }
    if result == ERR, wait >= 10, ContinuousClock.now - started < .milliseconds(2) {
      // The terminal went away without a hang-up reaching this process (started with `setsid`
      // or in the background): every read fails at once, and the loop would spin. End as a
      // hang-up does, so the state is saved.
      failedReads += 1
      if failedReads >= Self.failedReadsMeaningHangUp { return .signal(SIGHUP) }
      return nil
    }
    failedReads = 0
    switch result {
    case KEY_CODE_YES:
      // ncurses resized its screen and may have dropped cells: the next frame is drawn whole.
      if Int32(code) == KEY_RESIZE { lastPresented = nil }
      return keyEvent(forKeyCode: Int32(code))
    case OK:
      return .key(Self.key(forCharacter: UInt32(code)))
    default:
      return nil
    }
  }

  /// Takes the terminal back after the process was stopped and continued (`kill -STOP`, then
  /// `kill -CONT` or `fg`): while it was stopped a shell may have set the terminal's mode back to
  /// canonical with echo, turned keypad and mouse reporting off, and drawn over the screen. The
  /// session's mode (cbreak, no echo, no newline translation) is restored, keypad and mouse are
  /// turned on again, and the whole screen is redrawn. Returns a resize to the current size, so
  /// the next frame is laid out for it (the window may have changed while stopped).
  private func resume() -> InputEvent {
    reset_prog_mode()
    cbreak()
    noecho()
    nonl()
    keypad(window, true)
    pushdeck_enable_mouse()
    curs_set(0)
    clearok(window, true)
    wrefresh(window)
    return .resize(columns: Int(getmaxx(window)), rows: Int(getmaxy(window)))
  }

  /// Ends the session and gives the terminal back as it was. Safe to call more than once.
  public func restore() {
    guard isActive else { return }
    isActive = false
    curs_set(1)
    endwin()
    delscreen(screen)
    signals.stop()
    for file in ownedFiles { fclose(file) }
    ownedFiles = []
  }

  private static func environment(_ name: String) -> String {
    getenv(name).map { String(cString: $0) } ?? ""
  }

  private func keyEvent(forKeyCode code: Int32) -> InputEvent {
    switch code {
    case KEY_RESIZE: .resize(columns: Int(getmaxx(window)), rows: Int(getmaxy(window)))
    case pushdeck_key_mouse(): mouseEvent() ?? .key(.unknown(code))
    case KEY_UP: .key(.up)
    case KEY_DOWN: .key(.down)
    case KEY_LEFT: .key(.left)
    case KEY_RIGHT: .key(.right)
    case KEY_ENTER: .key(.enter)
    case KEY_BACKSPACE: .key(.backspace)
    case KEY_DC: .key(.delete)
    case KEY_PPAGE: .key(.pageUp)
    case KEY_NPAGE: .key(.pageDown)
    case KEY_HOME, KEY_FIND: .key(.home)
    case KEY_END, KEY_SELECT, KEY_LL: .key(.end)
    default: .key(.unknown(code))
    }
  }

  /// Reads the mouse event ncurses queued with `KEY_MOUSE`.
  private func mouseEvent() -> InputEvent? {
    var x: Int32 = 0
    var y: Int32 = 0
    let kind: MouseKind
    switch pushdeck_get_mouse(&x, &y) {
    case 1: kind = .click
    case 2: kind = .doubleClick
    case 4: kind = .wheelUp
    case 5: kind = .wheelDown
    default: return nil
    }
    return .mouse(x: Int(x), y: Int(y), kind: kind)
  }

  /// Names the key for a character code from `wget_wch`.
  public nonisolated static func key(forCharacter code: UInt32) -> Key {
    switch code {
    case 0x0D, 0x0A: return .enter
    case 0x1B: return .escape
    case 0x7F, 0x08: return .backspace
    case 0x09: return .tab
    case 0x01...0x1A: return .control(Character(Unicode.Scalar(UInt8(0x60 + code))))
    default:
      guard let scalar = Unicode.Scalar(code) else { return .unknown(Int32(bitPattern: code)) }
      return .character(Character(scalar))
    }
  }

  private func attributes(of style: Style) -> attr_t {
    var attributes = pushdeck_a_normal()
    if style.isBold { attributes |= pushdeck_a_bold() }
    if style.isDim { attributes |= pushdeck_a_dim() }
    if style.isItalic { attributes |= pushdeck_a_italic() }
    if style.isUnderlined { attributes |= pushdeck_a_underline() }
    if style.isReversed { attributes |= pushdeck_a_reverse() }
    return attributes
  }
}
