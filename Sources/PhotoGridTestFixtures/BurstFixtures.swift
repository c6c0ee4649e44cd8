import PhotoGridModel
import PhotoGridSamples

/// Shots of a burst for the stacks' tests: one scene as a camera takes it again a moment later.
package enum BurstFixtures {
    /// `scene` moved `shift` pixels down and twice that right, and `brighter` levels brighter.
    package static func frame(_ scene: Scene, shift: Int, brighter: Int = 0) -> RGBImage {
        let base = Scene.render(scene, width: 360, height: 240, seed: 7)
        var out = RGBImage(width: 320, height: 220)
        for y in 0..<220 {
            for x in 0..<320 {
                let from = ((y + shift) * 360 + x + shift * 2) * 3, to = (y * 320 + x) * 3
                for c in 0..<3 { out.pixels[to + c] = UInt8(min(255, Int(base.pixels[from + c]) + brighter)) }
            }
        }
        return out
    }
}
