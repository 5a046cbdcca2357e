import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The result of running a program to completion.
struct SubprocessResult {
  /// The exit status, or 128 + signal when it was killed.
  var status: Int32
  /// Standard output and standard error, interleaved (empty unless captured).
  var output: String
}

/// Runs a program with `posix_spawn` and waits for it with `waitpid`.
///
/// Foundation's `Process.waitUntilExit()` was seen to hang in this test process (its children
/// stayed zombies), so the end-to-end tests spawn and reap directly. Pipes are close-on-exec, so
/// a daemon (the tmux server) never inherits them and reading always reaches end of file.
func runSubprocess(_ path: String, _ arguments: [String], captureOutput: Bool) throws
  -> SubprocessResult
{
  var fds: [Int32] = [-1, -1]
  if captureOutput {
    guard pipe(&fds) == 0 else { throw SubprocessError.spawnFailed(errno) }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
  }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  if captureOutput {
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  }
  let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
  let envp: [UnsafeMutablePointer<CChar>?] =
    ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv { free(pointer) }
    for pointer in envp { free(pointer) }
  }
  // Children start with default signal handling and nothing blocked, whatever the test runner
  // inherited (an ignored SIGHUP would otherwise outlive `kill-server` in the panes).
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var defaults = sigset_t()
  sigfillset(&defaults)
  sigdelset(&defaults, SIGKILL)
  sigdelset(&defaults, SIGSTOP)
  var empty = sigset_t()
  sigemptyset(&empty)
  posix_spawnattr_setsigdefault(&attributes, &defaults)
  posix_spawnattr_setsigmask(&attributes, &empty)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
  if captureOutput { close(fds[1]) }
  guard spawned == 0 else {
    if captureOutput { close(fds[0]) }
    throw SubprocessError.spawnFailed(spawned)
  }
  var data = Data()
  if captureOutput {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(fds[0], &buffer, buffer.count)
      if count > 0 {
        data.append(contentsOf: buffer[0..<count])
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    close(fds[0])
  }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
  let signal = status & 0x7F
  let exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  return SubprocessResult(status: exitStatus, output: String(decoding: data, as: UTF8.self))
}

/// A program that could not be started.
enum SubprocessError: Error {
  case spawnFailed(Int32)
}
