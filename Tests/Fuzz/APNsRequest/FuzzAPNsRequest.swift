// libFuzzer target: the endpoint's request rules, `APNsRequest.decide`, on a request written as
// text: "METHOD PATH" on the first line, then "name: value" header lines, an empty line and
// the body. Built only by .ci/fuzz (PUSHDECK_FUZZ=1); see docs/RELIABILITY.md.
import Crypto
import PushServer
import PushWire

/// The fuzzer's own provider key: tokens it signs verify, so the claims' checks are reached.
private let fuzzKey: P256.Signing.PrivateKey = {
  guard let key = try? P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 7, count: 32)) else {
    fatalError("the fuzzer's key")
  }
  return key
}()
private let verifier = ProviderTokenVerifier(
  keys: [ProviderTokenKey(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: fuzzKey.publicKey)])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPNsRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var lines: [ArraySlice<UInt8>] = []
  var body: [UInt8] = []
  var index = 0
  var lineStart = 0
  while index < bytes.count {
    if bytes[index] == UInt8(ascii: "\n") {
      let line = bytes[lineStart..<index]
      if line.isEmpty {
        body = Array(bytes[(index + 1)...])
        break
      }
      lines.append(line)
      lineStart = index + 1
    }
    index += 1
  }
  if index == bytes.count, lineStart < bytes.count { lines.append(bytes[lineStart...]) }
  let requestLine = lines.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
  let parts = requestLine.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
  let method = parts.first.map(String.init) ?? ""
  let path = parts.count > 1 ? String(parts[1]) : ""
  var headers: [(name: String, value: String)] = []
  for line in lines.dropFirst() {
    let text = String(decoding: line, as: UTF8.self)
    if let colon = text.firstIndex(of: ":") {
      headers.append(
        (String(text[..<colon]), String(text[text.index(after: colon)...]).trimmingPrefix(" ").description))
    } else {
      headers.append((text, ""))
    }
  }
  // The handler keeps at most maximumBodyBytes + 1 bytes and counts the rest.
  let kept = Array(body.prefix(APNsRequest.maximumBodyBytes + 1))
  let outcome = APNsRequest.decide(
    method: method, path: path, headers: headers, body: kept, bodyByteCount: body.count, receivedAt: 1_795_000_000,
    makeID: { "00000000-0000-0000-0000-000000000000" })
  switch outcome {
  case .accepted(let record, _, _):
    // An accepted push is recorded as one capture line that reads back as the same push.
    let line = APNsRequest.captureLine(record)
    guard !line.utf8.contains(UInt8(ascii: "\n")) else { fatalError("capture line with a newline") }
    let again = PushReader.readCaptureLine(Array(line.utf8), lineNumber: 1, source: "fuzz")
    guard again.payload != nil else { fatalError("recorded capture line does not read back: \(line)") }
  case .rejected(let status, let reason, _, _):
    guard (400...499).contains(status), !reason.isEmpty else { fatalError("bad rejection \(status) \(reason)") }
    _ = APNsRequest.errorBody(reason: reason)
  }
  // Provider tokens: the authorization header as sent, and a token this key signs with the
  // `iat` an "x-fuzz-iat: NUMBER" line names (1e20, -0, 9223372036854775808 …), so the
  // claims' range checks run, not only the signature's. A refusal is a 4xx with a reason.
  let now = 1_795_000_000.0
  var tokens = headers.filter { $0.name.lowercased() == "authorization" }.map(\.value)
  if let iat = headers.first(where: { $0.name == "x-fuzz-iat" }).flatMap({ Double($0.value) }),
    let signed = try? ProviderTokenSigner.token(
      privateKey: fuzzKey, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: iat)
  {
    tokens.append("bearer " + signed)
  }
  for token in tokens {
    if case .failure(let refusal) = verifier.verify(authorization: token, now: now) {
      guard (400...499).contains(refusal.status), !refusal.reason.isEmpty else {
        fatalError("bad token refusal \(refusal.status) \(refusal.reason)")
      }
    }
  }
  return 0
}
