import PhotoGridCore

/// The colours an SGR sequence sets, as photogrid writes them and as tmux captures them: 38/48
/// with 2 (24-bit) or 5 (palette), 39/49 and 0 for the defaults, 30-37 and 40-47 (and their bright
/// forms), and reverse video (7, 27). The one reading of SGR for the model screens.
enum SGRColours {
    static func apply(_ numbers: [Int], foreground: inout RGB?, background: inout RGB?, reverse: inout Bool) {
        let numbers = numbers.isEmpty ? [0] : numbers
        var i = 0
        while i < numbers.count {
            let code = numbers[i]
            switch code {
            case 0: foreground = nil; background = nil; reverse = false
            case 7: reverse = true
            case 27: reverse = false
            case 39: foreground = nil
            case 49: background = nil
            case 38, 48:
                var colour: RGB?
                if i + 4 < numbers.count, numbers[i + 1] == 2 {
                    colour = RGB(UInt8(clamping: numbers[i + 2]), UInt8(clamping: numbers[i + 3]), UInt8(clamping: numbers[i + 4]))
                    i += 4
                } else if i + 2 < numbers.count, numbers[i + 1] == 5 {
                    colour = XtermPalette.color(numbers[i + 2])
                    i += 2
                }
                if code == 38 { foreground = colour } else { background = colour }
            case 30...37, 90...97: foreground = XtermPalette.color(16 + code % 10)
            case 40...47, 100...107: background = XtermPalette.color(16 + code % 10)
            default: break
            }
            i += 1
        }
    }
}
