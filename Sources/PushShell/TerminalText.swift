/// Makes untrusted text safe to print on a terminal: every control character (C0, DEL, C1),
/// and every bidi override or isolate, is replaced by a visible escape such as `\u{1B}`, so no
/// payload can move the cursor, change the title, write the clipboard or reorder a line.
package func terminalSafe(_ text: String) -> String {
  var output = ""
  output.reserveCapacity(text.utf8.count)
  for scalar in text.unicodeScalars {
    switch scalar.value {
    case 0x09: output += "  "
    case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C:
      output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    default:
      output.unicodeScalars.append(scalar)
    }
  }
  return output
}
