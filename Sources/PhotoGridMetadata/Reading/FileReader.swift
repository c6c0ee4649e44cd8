import PhotoGridModel
import PhotoGridSystem

/// Reads files. Read-only by construction: nothing here can write.
package enum FileReader {
    /// Larger files are refused before reading: no photo needs more.
    package static let defaultLimit = 512 * 1024 * 1024

    /// The whole file, or with `prefix` only its first `prefix` bytes.
    package static func read(_ path: RawPath, limit: Int = defaultLimit, prefix: Int? = nil) throws(DecodeError) -> [UInt8] {
        let file = try OpenFile(path, limit: limit)
        if let prefix { return try file.head(prefix) }
        return try file.all()
    }

    package static func lastError() -> String { SystemError.lastMessage() }
}

/// A photo file held open: its first bytes can be read, and then, only if needed, the rest,
/// without reading anything twice.
package final class OpenFile {
    private let file: FileDescriptor
    package let size: Int
    private var bytes: [UInt8] = []

    package init(_ path: RawPath, limit: Int = FileReader.defaultLimit) throws(DecodeError) {
        do throws(SystemError) {
            file = try FileDescriptor.open(path, .read, options: .untrusted)
        } catch {
            // A link whose file is missing is broken, not a file that went away.
            if error.isNotFound, path.linkStatus() != nil { throw .unreadable("broken link") }
            throw .unreadable(error.description)
        }
        let status: FileStatus
        do throws(SystemError) { status = try file.status() } catch { try? file.close(); throw .unreadable(error.description) }
        guard status.isRegular else { try? file.close(); throw .unreadable("not a regular file") }
        guard status.size <= limit else { try? file.close(); throw .tooLarge }
        size = status.size
    }

    deinit { try? file.close() }

    /// The open descriptor, for a decoder that reads the file itself.
    package func withDescriptor<T, E: Error>(_ body: (Int32) throws(E) -> T) throws(E) -> T { try body(file.raw) }

    /// The first `count` bytes (fewer if the file is shorter).
    package func head(_ count: Int) throws(DecodeError) -> [UInt8] {
        try fill(to: min(count, size))
        return Array(bytes.prefix(count))
    }

    /// The last `count` bytes (fewer if the file is shorter), read apart from the head.
    package func tail(_ count: Int) throws(DecodeError) -> [UInt8] {
        let start = max(0, size - count)
        if bytes.count >= size { return Array(bytes[start...]) }
        var failure: SystemError?
        let out = [UInt8](unsafeUninitializedCapacity: size - start) { [file] buffer, count in
            count = 0
            do throws(SystemError) { count = try file.readFully(into: UnsafeMutableRawBufferPointer(buffer), at: start) } catch {
                failure = error
            }
        }
        if let failure { throw .unreadable(failure.description) }
        return out
    }

    /// The bytes in `range`, read apart from the head; nil unless the file holds them all.
    package func bytes(in range: Range<Int>) -> [UInt8]? {
        guard range.lowerBound >= 0, range.upperBound <= size, !range.isEmpty else { return nil }
        if bytes.count >= range.upperBound { return Array(bytes[range]) }
        var failed = false
        let out = [UInt8](unsafeUninitializedCapacity: range.count) { [file] buffer, count in
            count = 0
            do throws(SystemError) { count = try file.readFully(into: UnsafeMutableRawBufferPointer(buffer), at: range.lowerBound) } catch {
                failed = true
            }
        }
        return failed || out.count < range.count ? nil : out
    }

    /// The whole file: what `head` read is not read again.
    package func all() throws(DecodeError) -> [UInt8] {
        try fill(to: size)
        return bytes
    }

    /// Reads on from where the last read stopped until `target` bytes are in; fewer when the
    /// file shrank meanwhile: what there is is decoded.
    private func fill(to target: Int) throws(DecodeError) {
        guard bytes.count < target else { return }
        var failure: SystemError?
        // Into uninitialised space after what was read before, which is copied, not read again.
        bytes = [UInt8](unsafeUninitializedCapacity: target) { [bytes, file] buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.copyBytes(from: bytes)
            count = bytes.count
            do throws(SystemError) { count += try file.readFully(into: UnsafeMutableRawBufferPointer(rebasing: raw[count...]), at: count) } catch {
                failure = error
            }
        }
        if let failure { throw .unreadable(failure.description) }
    }
}
