/// Reading back what photogrid writes, for tests: the sixel images in a byte stream.
package enum TerminalOutput {
    /// The DCS sixel sequences (`ESC P ... ESC \`) in `bytes`, in order.
    package static func sixels(_ bytes: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0x1B && bytes[i + 1] == UInt8(ascii: "P") {
                var j = i + 2
                while j + 1 < bytes.count && !(bytes[j] == 0x1B && bytes[j + 1] == UInt8(ascii: "\\")) { j += 1 }
                result.append(Array(bytes[i...min(j + 1, bytes.count - 1)]))
                i = j + 2
            } else { i += 1 }
        }
        return result
    }

    /// The last line of text, escape sequences taken out: the status line of a printed frame.
    package static func lastLine(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let line = text.split(separator: "\n").last.map(String.init) ?? ""
        var out = "", skipping = false
        for scalar in line.unicodeScalars {
            if scalar == "\u{1B}" { skipping = true; continue }
            if skipping { if (0x40...0x7E).contains(scalar.value) && scalar != "[" { skipping = false }; continue }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// The APC commands in `bytes`, each as its keys (`a=t,i=3,...`) and payload.
    package static func kittyCommands(_ bytes: [UInt8]) -> [(keys: String, payload: [UInt8])] {
        var found: [(String, [UInt8])] = []
        var i = 0
        while i + 2 < bytes.count {
            guard bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "_"), bytes[i + 2] == UInt8(ascii: "G") else { i += 1; continue }
            var j = i + 3
            while j + 1 < bytes.count, !(bytes[j] == 0x1B && bytes[j + 1] == UInt8(ascii: "\\")) { j += 1 }
            let body = Array(bytes[(i + 3)..<j])
            let semicolon = body.firstIndex(of: UInt8(ascii: ";")) ?? body.count
            found.append((String(decoding: body[..<semicolon], as: UTF8.self), semicolon < body.count ? Array(body[(semicolon + 1)...]) : []))
            i = j + 2
        }
        return found
    }
}
