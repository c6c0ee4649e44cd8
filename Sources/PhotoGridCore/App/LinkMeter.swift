import PhotoGridMetadata
import PhotoGridModel

/// How fast the terminal takes what photogrid writes, learnt from the frames' own writes: a write
/// to the terminal returns once the bytes are in the pty's buffer, so a large one takes as long as
/// the far end takes to read its bytes. A terminal on this machine reads tens to hundreds of
/// megabytes a second (xterm parsing sixel, the slowest seen here, about 6); one at the end of SSH
/// or a VPN reads what the link carries, 2.5 MB a second at 20 Mbit/s. Below `slowBelow` the link
/// is slow, and photogrid sends what shows the screen soonest (`pictureScale`, `frameBudget`);
/// above `fastAbove` again it is not. Nothing changes before a large write has been timed; the
/// first slow one is enough, whatever the session says of SSH (issue 53), unless one went at a
/// better pace before it.
package struct LinkMeter {
    /// Bytes a second, a running mean of the large writes timed so far; nil before the first.
    package private(set) var bytesPerSecond: Double?
    package private(set) var isSlow = false
    /// Bytes of the slow writes since the last fast one: the evidence.
    private var slowBytes = 0
    /// A write has gone fast: frames go whole.
    private var seenFast = false
    /// A write has gone at a better pace than a slow link's: the terminal may be on this
    /// machine, so from then on slowness needs `evidence`.
    private var seenNotSlow = false
    /// The session says it comes over SSH (`SSH_CONNECTION`, `SSH_TTY`): the terminal is on
    /// another machine and a slow write is the link's, even after a fast one.
    private let overSSH: Bool

    package init(overSSH: Bool = false) { self.overSSH = overSSH }

    /// How much must have gone slowly before the link is taken for slow.
    private var needed: Int { overSSH || !seenNotSlow ? LinkMeter.smallestTimed : LinkMeter.evidence }

    /// Writes smaller than this fit the pty's and the link's buffers and say nothing of the rate.
    package static let smallestTimed = 96 * 1024
    package static let slowBelow = 3.0 * 1_048_576, fastAbove = 6.0 * 1_048_576
    /// How much must have gone slowly, with no fast write between, before a link not said to be
    /// remote is taken for slow once a write has gone at a better pace than a slow link's: a
    /// terminal on this machine can be slow for its first second (xterm on a virtual display
    /// took 0.8 MB at 0.6-2 MB a second while it started, then 10-16), a link is slow for good.
    package static let evidence = 1_250_000

    /// A frame's write of `bytes` took `seconds`.
    package mutating func wrote(_ bytes: Int, seconds: Double) {
        guard bytes >= LinkMeter.smallestTimed, seconds > 0 else { return }
        let rate = Double(bytes) / seconds
        let mean = bytesPerSecond.map { ($0 + rate) / 2 } ?? rate
        bytesPerSecond = mean
        let evidenced = slowBytes >= LinkMeter.evidence
        if rate < LinkMeter.slowBelow { slowBytes += bytes } else if rate > LinkMeter.fastAbove { slowBytes = 0; seenFast = true }
        if rate >= LinkMeter.slowBelow {
            // Taken for slow on less than the evidence, a terminal not said to be remote that
            // reads at a better pace once was slow while it started: its pictures go as a fast
            // link's again (else they would stay cheap until something large is written).
            if isSlow && !evidenced && !overSSH { isSlow = false }
            seenNotSlow = true
        }
        if !isSlow && slowBytes >= needed && mean < LinkMeter.slowBelow { isSlow = true }
        if isSlow && mean > LinkMeter.fastAbove { isSlow = false }
    }

    /// The pictures' bytes a frame may write: on a slow link an eighth of a second's worth, so
    /// that keys are read between frames and a screen left is not sent on (at least one picture
    /// goes each frame, however large: a 600-pixel sixel tile is about this at 20 Mbit/s, so what
    /// is still going out when a key comes is at most about one picture; a quarter second let it
    /// be two); before any write has gone fast, `unknownBudget`, so that
    /// the pace is learnt before much is sent as if the link were fast; none on a fast link.
    package var frameBudget: Int? {
        if isSlow, let rate = bytesPerSecond { return max(16 * 1024, Int(rate / 8)) }
        return seenFast ? nil : LinkMeter.unknownBudget
    }

    package static let unknownBudget = 512 * 1024

    /// On a slow link, the share of their size at which pictures a terminal scales to
    /// their cells are sent: the largest of 1, 3/4 and 1/2 whose screen of `pixels` fits
    /// in 1.2 s of the link, at `bytesPerPixel`.
    package func pictureScale(screenPixels pixels: Int) -> Double {
        guard isSlow, let rate = bytesPerSecond else { return 1 }
        return LinkScales.all.first { Double(pixels) * $0 * $0 * LinkMeter.bytesPerPixel <= rate * 1.2 } ?? LinkScales.all.last!
    }

    /// What kitty's pictures take a pixel, as PNG in base64: 2.03-2.05 bytes at a 590x600 tile's
    /// full size and 2.19-2.21 at half of it, on three photo sets (real-photos, their baseline
    /// copies, the 12 MP camera-like set; `--print` at 4 columns with 10x20, 8x15 and 5x10
    /// cells). It was 1.6, measured before the rows were Sub-filtered and on full-size tiles
    /// only: a screen at 3/4 then looked like 2.9 MB and was 5.2, and kitty's first screen at
    /// 20 Mbit/s took 2.2 s.
    static let bytesPerPixel = 2.2
}

/// The shares of their size at which pictures may go on a slow link, largest first: few, so that
/// a change of pace rarely asks for new tiles.
enum LinkScales {
    static let all = [1.0, 0.75, 0.5]
}
