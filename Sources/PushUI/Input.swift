import PushCore

/// A key the user pressed, decoded by the terminal backend.
public enum Key: Equatable, Hashable, Sendable {
  /// A printable character.
  case character(Character)
  /// A control chord such as Ctrl-C, named by its letter.
  case control(Character)
  /// Arrow keys.
  case up, down, left, right
  /// Page Up, Page Down, Home and End.
  case pageUp, pageDown, home, end
  /// Return or Enter.
  case enter
  /// Escape.
  case escape
  /// Backspace.
  case backspace
  /// Delete (forward delete): in a text field, deletes the character under the cursor; a
  /// command wherever Backspace is one.
  case delete
  /// Tab.
  case tab
  /// A key the backend could not name, with its code.
  case unknown(Int32)
}

/// Input from the terminal.
public enum InputEvent: Equatable, Sendable {
  /// A key press.
  case key(Key)
  /// The terminal was resized.
  case resize(columns: Int, rows: Int)
  /// A termination signal arrived (SIGINT, SIGTERM, SIGHUP).
  case signal(Int32)
  /// A mouse button or the wheel, at a cell (column `x`, row `y`, from the top left).
  case mouse(x: Int, y: Int, kind: MouseKind)
}

/// What the mouse did.
public enum MouseKind: Equatable, Sendable {
  /// Button 1 pressed and released.
  case click
  /// Button 1 clicked twice.
  case doubleClick
  /// The wheel turned up or down.
  case wheelUp, wheelDown
}

/// Maps keys to commands.
public struct KeyMap: Equatable, Sendable {
  /// The bindings.
  public var bindings: [Key: Command]

  /// Creates a key map.
  public init(bindings: [Key: Command]) { self.bindings = bindings }

  /// Every key the front end knows, in the order the help overlay lists them:
  /// (keys as shown, what they do, the command).
  public static let documented: [(keys: String, help: String, bindings: [(Key, Command)])] = [
    (
      "↑ ↓  k j", "move the selection · scroll an opened one",
      [(.up, .moveUp), (.character("k"), .moveUp), (.down, .moveDown), (.character("j"), .moveDown)]
    ),
    ("PgUp PgDn", "a page up · down: list, opened one, inspector", [(.pageUp, .pageUp), (.pageDown, .pageDown)]),
    ("Home End", "the first · the last", [(.home, .jumpToFirst), (.end, .jumpToLast)]),
    ("Enter", "open · tap an opened one · expand · choose", [(.enter, .activate)]),
    ("Space", "expand or collapse a stack", [(.character(" "), .toggleExpand)]),
    ("o", "open the notification in full", [(.character("o"), .openSelected)]),
    ("n  Tab", "Notification Center ⇄ lock screen", [(.character("n"), .toggleCenter), (.tab, .toggleCenter)]),
    (
      "Esc  h ←", "back: close overlay, banner, pane or screen",
      [(.escape, .back), (.character("h"), .back), (.left, .back)]
    ),
    ("a", "actions (long press)", [(.character("a"), .showActions)]),
    (
      "x  X  C", "clear one · its group · all (asks first)",
      [(.character("x"), .clearSelected), (.character("X"), .clearGroup), (.character("C"), .clearAll)]
    ),
    (
      "K  T", "provisional: Keep… · Turn Off",
      [(.character("K"), .keepProvisional), (.character("T"), .turnOffProvisional)]
    ),
    (
      "i  t  s  r", "inspector · timeline · settings · rejected push",
      [
        (.character("i"), .toggleInspector), (.character("t"), .toggleTimeline), (.character("s"), .toggleSettings),
        (.character("r"), .inspectRejected),
      ]
    ),
    (
      "l  d", "lock or unlock the phone · Do Not Disturb on/off",
      [(.character("l"), .toggleLock), (.character("d"), .toggleDoNotDisturb)]
    ),
    (
      "]  }", "clock +1 minute · +1 hour",
      [(.character("]"), .advanceClock(.minutes(1))), (.character("}"), .advanceClock(.hours(1)))]
    ),
    (
      ",  .", "seek to the previous · next push",
      [(.character(","), .stepToPreviousPush), (.character("."), .stepToNextEvent)]
    ),
    (
      "p  +  -", "play/pause · faster · slower (0.5× … instant)",
      [
        (.character("p"), .togglePlay), (.character("+"), .faster), (.character("="), .faster),
        (.character("-"), .slower),
      ]
    ),
    ("g", "go to a time: +5m, -30s, 09:45, 08:00:30", [(.character("g"), .beginSeek)]),
    ("c", "next theme: default, high-contrast, light, sleep", [(.character("c"), .nextTheme)]),
    ("?  q", "this help · quit", [(.character("?"), .toggleHelp), (.character("q"), .quit), (.character("Q"), .quit)]),
  ]

  /// The default bindings: every key in ``documented``.
  public static let standard = KeyMap(
    bindings: Dictionary(documented.flatMap(\.bindings), uniquingKeysWith: { first, _ in first }))

  /// What the settings pane reads differently: ← and → change the highlighted value.
  public static let settingsOverrides: [Key: Command] = [.left: .adjustSetting(-1), .right: .adjustSetting(1)]

  /// What a text field's keys do besides typing, Backspace, Enter and Esc: the cursor keys and
  /// the line-editing chords of a shell (Emacs mode: Ctrl-A, Ctrl-E, Ctrl-B, Ctrl-F, Ctrl-D,
  /// Ctrl-W, Ctrl-U, Ctrl-K).
  public static let textEdits: [Key: TextEdit] = [
    .left: .moveLeft, .right: .moveRight, .home: .moveToStart, .end: .moveToEnd, .delete: .deleteForward,
    .control("b"): .moveLeft, .control("f"): .moveRight, .control("a"): .moveToStart, .control("e"): .moveToEnd,
    .control("d"): .deleteForward, .control("w"): .deleteWordBackward, .control("u"): .deleteToStart,
    .control("k"): .deleteToEnd,
  ]

  /// The command for a key, if bound.
  public func command(for key: Key) -> Command? { bindings[key] }

  /// Turns terminal input into an event, if it means anything, reading keys as commands.
  public func event(for input: InputEvent) -> Event? { event(for: input, mode: .commands) }

  /// Turns terminal input into an event, if it means anything.
  ///
  /// In ``InputMode/textEntry`` printable keys are typed, Backspace deletes, Enter sends and
  /// Esc cancels; nothing else is bound.
  public func event(for input: InputEvent, mode: InputMode) -> Event? {
    switch input {
    case .key(let key):
      if mode == .settings, let command = Self.settingsOverrides[key] { return .command(command) }
      guard mode == .textEntry else { return command(for: key).map(Event.command) }
      switch key {
      case .character(let character): return .command(.insertText(String(character)))
      case .backspace: return .command(.deleteBackward)
      case .enter: return .command(.activate)
      case .escape: return .command(.back)
      default: return Self.textEdits[key].map { .command(.editText($0)) }
      }
    case .resize(let columns, let rows): return .resize(columns: columns, rows: rows)
    case .signal(let number): return .terminationRequested(signal: number)
    case .mouse(_, _, let kind): return Self.mouseEvent(kind, target: nil)
    }
  }

  /// Turns a mouse event into an event, given what the last frame drew under the pointer.
  public static func mouseEvent(_ kind: MouseKind, target: HitTarget?) -> Event? {
    switch kind {
    // Over the inspector the wheel scrolls its text, three rows a notch as terminals scroll;
    // elsewhere it moves the selection of the list under it.
    case .wheelUp: return .command(target == .inspector ? .scrollInspector(-3) : .scroll(-1))
    case .wheelDown: return .command(target == .inspector ? .scrollInspector(3) : .scroll(1))
    case .click, .doubleClick:
      return target.map { .command(.click($0, isDouble: kind == .doubleClick)) }
    }
  }
}
