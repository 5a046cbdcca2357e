import CNCursesW
import Glibc

/// An ncurses session on `/dev/null`, used to ask ncurses how far a grapheme moves the cursor.
///
/// This is how the width tables are checked against ncurses without a terminal: write a
/// glyph with `setcchar` and `wadd_wch`, then read `getcurx` (architecture.md 5.3).
@MainActor
public final class HeadlessCursesProbe {
  private let screen: OpaquePointer
  private let window: UnsafeMutablePointer<WINDOW>
  private let output: UnsafeMutablePointer<FILE>
  private let input: UnsafeMutablePointer<FILE>
  private var isOpen = true

  /// Opens the session, or returns `nil` when ncurses cannot start.
  ///
  /// - Parameter terminalType: the terminfo entry to use.
  public init?(terminalType: String = "xterm-256color") {
    guard setlocale(LC_ALL, "C.UTF-8") != nil || setlocale(LC_ALL, "") != nil,
      let output = fopen("/dev/null", "w")
    else { return nil }
    guard let input = fopen("/dev/null", "r") else {
      fclose(output)
      return nil
    }
    guard let screen = newterm(terminalType, output, input), let window = pushdeck_stdscr() else {
      fclose(output)
      fclose(input)
      return nil
    }
    self.output = output
    self.input = input
    self.screen = screen
    self.window = window
  }

  /// The columns ncurses advances after writing one glyph at the left edge.
  public func advance(of glyph: String) -> Int {
    var characters = glyph.unicodeScalars.prefix(5).map { wchar_t(bitPattern: $0.value) }
    characters.append(0)
    var cchar = cchar_t()
    _ = pushdeck_setcchar(&cchar, characters, pushdeck_a_normal(), 0)
    wmove(window, 0, 0)
    wadd_wch(window, &cchar)
    return Int(getcurx(window))
  }

  /// What glibc's `wcwidth` says for one scalar in the probe's locale.
  public func wcwidth(of scalar: Unicode.Scalar) -> Int {
    Int(CNCursesW.wcwidth(wchar_t(bitPattern: scalar.value)))
  }

  /// Ends the session. Call once when done.
  public func close() {
    guard isOpen else { return }
    isOpen = false
    endwin()
    delscreen(screen)
    fclose(output)
    fclose(input)
  }
}
