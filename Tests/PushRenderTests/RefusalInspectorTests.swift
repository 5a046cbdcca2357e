import PushCore
import PushRender
import PushUI
import Testing

/// A push `run --listen`'s endpoint refused, in the inspector: what was answered and why, then
/// the request as it arrived, whose untrusted text reaches the screen only as escapes.
@Suite struct RefusalInspectorTests {
  @Test func theInspectorShowsTheAnswerTheHeadersAndTheBodyEscaped() {
    var state = AppState.demo(upcoming: false)
    state.terminalColumns = 100
    state.terminalRows = 30
    state.noteEndpointRefusal(
      EndpointRefusal(
        status: 400, reason: "BadRequest", detail: "TrailingComma at 1:25: trailing comma before '}'",
        app: "com.example.chat", path: "/3/device/abcd",
        headers: [
          .init(name: "apns-topic", value: "com.example.chat"), .init(name: "x-note", value: "a\u{1B}[31mred"),
        ],
        body: "{\"aps\":{\"alert\":\"hi\u{07}\"},}", bodyByteCount: 5000))
    _ = reduce(into: &state, .command(.inspectRejected))
    let text = render(state, size: Size(columns: 100, rows: 30), theme: .builtInDefault).textDump()
    // The pane wraps long lines: each is checked by a part that fits on a row.
    #expect(text.contains("✗ Refused on the endpoint 1 of 1 ·") && text.contains("com.example.chat"))
    #expect(text.contains("POST /3/device/abcd"))
    #expect(text.contains("answered 400 BadRequest: nothing reached the"))
    #expect(text.contains("• TrailingComma at 1:25: trailing comma"))
    #expect(text.contains("x-note: a\\u{1B}[31mred"))
    #expect(text.contains(#"{"aps":{"alert":"hi\u{7}"},}"#))
    #expect(text.contains("Body as received (5000 bytes)"))
    #expect(text.contains("… the first 24 bytes are kept"))
    #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"))
  }

  /// After a flood the inspector says how many older refusals it no longer keeps, so its "k of
  /// N" and the status line's count do not seem to disagree.
  @Test func theInspectorSaysHowManyRefusalsAFloodDidNotKeep() {
    var state = AppState.demo(upcoming: false)
    state.terminalColumns = 100
    state.terminalRows = 30
    state.countEndpointRefusals(notKept: 7)
    state.noteEndpointRefusal(EndpointRefusal(status: 400, reason: "BadRequest"))
    _ = reduce(into: &state, .command(.inspectRejected))
    let text = render(state, size: Size(columns: 100, rows: 30), theme: .builtInDefault).textDump()
    #expect(text.contains("7 older refusals are not kept (a flood)"))
    #expect(text.contains("✗ 8 rejected"))
  }

  /// Beside an open pane the toast sits on the phone's half, not across the pane's border.
  @Test func aToastBesideThePaneLeavesItsBorderWhole() throws {
    var state = AppState.demo(upcoming: false)
    state.noteEndpointRefusal(EndpointRefusal(status: 400, reason: "BadDeviceToken", app: "com.example.chat"))
    _ = reduce(into: &state, .command(.inspectRejected))
    let rows = render(state, size: Size(columns: 120, rows: 30), theme: .builtInDefault).textDump()
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // The toast takes two rows here; its last is the one beside the pane's bottom border.
    let first = try #require(rows.first { $0.contains("Refused on the endpoint: 400") })
    let toastRow = try #require(rows.first { $0.contains("(com.example.chat)") })
    let pane = try #require(toastRow.firstIndex(of: "╰"))
    #expect(try #require(toastRow.range(of: "(com.example.chat)")).upperBound < pane)
    #expect(toastRow[pane...].dropFirst().dropLast(2).allSatisfy { $0 == "─" }, "\(toastRow)")
    let border = try #require(first.firstIndex(of: "│"))
    #expect(try #require(first.range(of: "Refused on the endpoint: 400")).upperBound < border)
  }
}
