#if canImport(Glibc)
  import Glibc
#endif

/// A TCP socket listening on 127.0.0.1 at a port the system picks, for tests that need an
/// endpoint of their own (one that resets connections, a port already in use).
public enum Loopback {
  /// The listening socket and its port; nil when binding or listening failed. The caller closes it.
  public static func listen(backlog: Int32 = 4) -> (descriptor: Int32, port: Int)? {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, length) == 0 && Glibc.listen(listener, backlog) == 0
          && getsockname(listener, pointer, &length) == 0
      }
    }
    guard bound else {
      close(listener)
      return nil
    }
    return (listener, Int(UInt16(bigEndian: address.sin_port)))
  }
}
