import Foundation
import PushWire

/// One input the user named, resolved: a file with its format, or standard input.
package struct ResolvedInput: Sendable {
  /// The path as shown in messages (`-` becomes `<stdin>`).
  package var displayPath: String
  /// The file path, or nil for standard input.
  package var path: String?
  /// The format; nil for standard input until sniffed.
  package var format: InputFormat?
}

/// An input that could not be read, reported with exit status 2.
package struct InputProblem: Error {
  package var path: String
  package var message: String
}

/// What kind of file a path names (symbolic links followed), or nil when it cannot be looked up.
package func fileKind(_ path: String) -> mode_t? { fileKindAndError(path).kind }

/// ``fileKind(_:)``, and `errno` as `stat` left it when it failed (read inside the call: the
/// runtime may change it on the way back).
package func fileKindAndError(_ path: String) -> (kind: mode_t?, error: Int32) {
  var info = stat()
  let failure = RawPath.withCString(path) { stat($0, &info) == 0 ? 0 : errno }
  return failure == 0 ? (info.st_mode & S_IFMT, 0) : (nil, failure)
}

/// Why a path `stat` could not look at (`failure`, its errno) cannot be read, with what to do;
/// `absent` when nothing is there at all.
private func unreadableMessage(_ failure: Int32, path: String, absent: String) -> String {
  switch failure {
  case ELOOP: "cannot be read: a loop of symbolic links; fix or remove the link"
  case ENOENT where RawPath.isSymbolicLink(path): "cannot be read: a symbolic link to nothing; fix or remove the link"
  case ENOENT: absent
  case EACCES: "cannot be read: permission denied on a directory on its path"
  default: "cannot be read: \(String(cString: strerror(failure)))"
  }
}

/// Resolves command-line paths: files as given, directories recursively (`.apns`, `.json`,
/// `.jsonl`, `.ndjson`, sorted for stable output), and `-` for standard input.
///
/// A directory walk takes regular files only: a FIFO, socket or device inside a directory is
/// skipped (opening a FIFO would wait for a writer forever). Named on the command line, a FIFO
/// is read as a stream; a device or socket is refused.
package func resolveInputs(_ paths: [String]) -> (inputs: [ResolvedInput], problems: [InputProblem]) {
  var inputs: [ResolvedInput] = []
  var problems: [InputProblem] = []
  // Paths go to the file system as bytes (`RawPath`): any file name opens, shown escaped.
  for path in paths {
    if path == "-" {
      inputs.append(ResolvedInput(displayPath: "<stdin>", path: nil, format: nil))
      continue
    }
    // One look at the path: its kind, or why there is none (errno read inside the call).
    let (kind, failure) = fileKindAndError(path)
    guard let kind else {
      problems.append(
        InputProblem(
          path: RawPath.display(path),
          message: unreadableMessage(failure, path: path, absent: "no such file or directory")))
      continue
    }
    if kind == S_IFDIR {
      let problemsBefore = problems.count
      guard let listing = RawPath.files(under: path) else {
        problems.append(
          InputProblem(
            path: RawPath.display(path),
            message: "cannot list the directory (\(String(cString: strerror(errno)))); check its permissions"))
        continue
      }
      func full(_ relative: String) -> String { path.hasSuffix("/") ? path + relative : path + "/" + relative }
      for unlisted in listing.unlisted {
        problems.append(
          InputProblem(
            path: RawPath.display(full(unlisted.path)),
            message: "cannot list the directory (\(unlisted.reason)); what it holds was not read; check its permissions"
          ))
      }
      var found: [String] = []
      for relative in listing.files where InputFormat.from(fileName: relative) != nil {
        let (kind, failure) = fileKindAndError(full(relative))
        if kind == S_IFREG {
          found.append(relative)
        } else if kind == nil {
          // A payload's name that leads nowhere: a broken symbolic link, a loop of them, or a
          // file that went away or cannot be looked at.
          problems.append(
            InputProblem(
              path: RawPath.display(full(relative)),
              message: unreadableMessage(failure, path: full(relative), absent: "went away while the folder was read")))
        }
        // FIFOs, sockets and devices are passed over (opening a FIFO would wait for a writer
        // forever); named on the command line, a FIFO is read.
      }
      // A directory with nothing to read is a mistake to say, not a pass: in CI a mistyped
      // path (`validate payload/` for `payloads/`) checked nothing and exited 0.
      if found.isEmpty, listing.unlisted.isEmpty, problems.count == problemsBefore {
        problems.append(
          InputProblem(
            path: RawPath.display(path),
            message:
              "holds no payload files (.apns, .json, .jsonl or .ndjson, in it or below it); name the directory that has them"
          ))
        continue
      }
      for relative in found.sorted() {
        inputs.append(
          ResolvedInput(
            displayPath: RawPath.display(full(relative)), path: full(relative),
            format: InputFormat.from(fileName: relative)))
      }
    } else {
      if kind != S_IFREG && kind != S_IFIFO {
        let what =
          switch kind {
          case S_IFCHR: "is a character device"
          case S_IFBLK: "is a block device"
          case S_IFSOCK: "is a socket"
          default: "is not a regular file"
          }
        problems.append(
          InputProblem(
            path: RawPath.display(path),
            message:
              "\(what), not a file; to read a device or a terminal, pipe it to standard input (… | pushdeck COMMAND -)"
          ))
        continue
      }
      // A file named explicitly is read whatever its name; unknown names are read as payloads.
      inputs.append(
        ResolvedInput(
          displayPath: RawPath.display(path), path: path, format: InputFormat.from(fileName: path) ?? .payload))
    }
  }
  return (inputs, problems)
}

/// Reads a whole file, refusing anything over `limit` bytes.
package func readWholeFile(_ path: String, limit: Int) throws(InputProblem) -> [UInt8] {
  let descriptor = RawPath.openForReading(path)
  guard descriptor >= 0 else {
    throw InputProblem(
      path: RawPath.display(path), message: "cannot open the file (check that it exists and is readable)")
  }
  let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  defer { try? handle.close() }
  // What is not a file is said as such (a folder read as "NSCocoaErrorDomain error 256", and
  // /dev/zero as a file over 16 MiB; found by an exploratory test of `push`).
  var info = stat()
  if fstat(descriptor, &info) == 0 {
    let kind = info.st_mode & S_IFMT
    if kind == S_IFDIR {
      throw InputProblem(path: RawPath.display(path), message: "is a folder; name a payload file in it")
    }
    if kind == S_IFCHR || kind == S_IFBLK || kind == S_IFSOCK {
      throw InputProblem(
        path: RawPath.display(path),
        message: "is a device or a socket, not a file; to read one, pipe it to standard input (… | pushdeck COMMAND -)")
    }
  }
  do {
    let data = try handle.read(upToCount: limit + 1) ?? Data()
    guard data.count <= limit else {
      throw InputProblem(
        path: RawPath.display(path),
        message: "the file is over \(limit >> 20) MiB; a payload is at most 4 KiB (a capture must be named .jsonl)")
    }
    return [UInt8](data)
  } catch let problem as InputProblem {
    throw problem
  } catch {
    throw InputProblem(path: RawPath.display(path), message: "cannot read the file: \(error.localizedDescription)")
  }
}

/// Streams a file (or standard input) in 1 MiB chunks through `body`, never holding it whole.
package func streamChunks(path: String?, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(InputProblem) {
  let descriptor: Int32 = path.map(RawPath.openForReading) ?? 0
  guard descriptor >= 0 else {
    throw InputProblem(
      path: path.map(RawPath.display) ?? "<stdin>", message: "cannot open the file: \(String(cString: strerror(errno)))"
    )
  }
  defer { if path != nil { close(descriptor) } }
  let chunkSize = 1 << 20
  let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
  defer { chunk.deallocate() }
  while true {
    let count = read(descriptor, chunk.baseAddress, chunkSize)
    if count < 0 {
      if errno == EINTR { continue }
      throw InputProblem(
        path: path.map(RawPath.display) ?? "<stdin>", message: "read failed: \(String(cString: strerror(errno)))")
    }
    if count == 0 { return }
    body(UnsafeBufferPointer(rebasing: chunk[0..<count]))
  }
}

/// The app a payload file goes to when neither the file (`Simulator Target Bundle`) nor
/// `--bundle` names one: the same for `run`, `render`, `explain` and `replay`. Never given to a
/// capture line (its envelope names its app) or to a text that is not JSON: those keep the app
/// they named before their mistake, or show as from an unknown app (``PushRecord/takesDefaultApp``).
package let fallbackBundleID = "com.example.app"
