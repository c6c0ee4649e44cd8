import PhotoGridCore

/// `photogrid-bench run DIR`: every figure of docs/benchmarks.md, as one Markdown report.
enum Report {
    package static func run(source: String, photogrid: String, runs: Int) throws {
        print("# photogrid benchmark\n")
        for line in Machine.describe() { print("- \(line)") }
        let inputs = try Inputs(from: source)
        defer { inputs.remove() }
        for line in inputs.summary { print("- \(line)") }
        print("- each figure the median of \(runs) runs; a first screen is 6 columns on 240x67 cells of 10x20 pixels "
              + "(18 photos), timed to the end of photogrid's output (`--print`)\n")

        let bench = FirstScreen(photogrid: photogrid, runs: runs)
        let sets = [("12 MP baseline, no EXIF thumbnail", inputs.camera), ("12 MP baseline with EXIF thumbnail", inputs.cameraExif),
                    ("baseline, no EXIF thumbnail", inputs.baseline), ("baseline with EXIF thumbnail", inputs.exif),
                    ("progressive (as shipped)", inputs.progressive)]
        print("## First screen\n")
        print(Table.row(["photos", "mode", "cold", "disk cache warm", "timg -ph", "djpeg 1/8 floor", "cold / timg", "cold / floor",
                         "warm / timg", "peak RSS"]))
        print(Table.rule(10))
        for (name, folder) in sets {
            let files = try FolderScanner().scan(RawPath(folder)).map(\.source.description)
            let timg = try bench.timg(files)
            let floor = try bench.floor(files)
            for mode in ["halfblock", "sixel"] {
                let (cold, megabytes) = try bench.cold(folder, mode: mode)
                let warm = try bench.warmDisk(folder, mode: mode)
                let halfBlock = mode == "halfblock"
                print(Table.row([name, mode, ms(cold), ms(warm), halfBlock ? ms(timg) : "", halfBlock ? ms(floor) : "",
                                 halfBlock ? ratio(cold, timg) : "", halfBlock ? ratio(cold, floor) : "",
                                 halfBlock ? ratio(warm, timg) : "", "\(megabytes) MB"]))
            }
        }

        print("\n## Keys with the memory cache warm (app-side, no terminal write; median of 5)\n")
        print(Table.row(["mode", "key", "time", "bytes written", "tiles still loading"]))
        print(Table.rule(5))
        for mode in [RenderMode.halfBlock(.trueColor), .sixel(colors: 256)] {
            let interaction = try Interaction(folder: inputs.scroll, mode: mode)
            defer { interaction.stop() }
            let scroll = interaction.scrollOneRow(times: 5)
            let (plus, minus) = interaction.columnChanges(times: 5)
            let time = interaction.timeZoom()
            for (key, figure) in [("one row down (j)", scroll), ("6 to 5 columns (+)", plus), ("5 to 6 columns (-)", minus)] + time {
                print(Table.row([mode.description, key, ms(figure.seconds, digits: 2), "\(figure.bytes)", "\(figure.tilesLoading)"]))
            }
        }

        print("\n## Zoom view on 240x67 cells, from a 4-column grid (in-process, no disk cache)\n")
        print(Table.row(["photos", "mode", "Enter: first picture", "Enter: sharp", "+: sharp at 1.5x", "n: next photo sharp (median of 5)"]))
        print(Table.rule(6))
        for (name, folder) in [("all \(inputs.allCount) as shipped", inputs.all)] {
            for mode in [RenderMode.halfBlock(.trueColor), .sixel(colors: 256)] {
                let interaction = try Interaction(folder: folder, mode: mode, columns: 4)
                defer { interaction.stop() }
                let (open, zoomIn, step) = ZoomTimes(interaction: interaction).run(steps: 5)
                print(Table.row([name, mode.description, ms(open.first, digits: 1), ms(open.sharp, digits: 1),
                                 ms(zoomIn.sharp, digits: 1), ms(step.sharp, digits: 1)]))
            }
        }

        print("\n## Thumbnails per second, whole folder, from cold (in-process, no disk cache)\n")
        print(Table.row(["photos", "mode", "count", "seconds", "per second"]))
        print(Table.rule(5))
        for (name, folder) in [("all \(inputs.allCount) as shipped", inputs.all)] + sets {
            for mode in [RenderMode.halfBlock(.trueColor), .sixel(colors: 256)] {
                let (count, seconds) = try Throughput.run(folder: folder, mode: mode)
                print(Table.row([name, mode.description, "\(count)", Table.fixed(seconds, 2), Table.fixed(Double(count) / seconds, 1)]))
            }
        }

        print("\n## 10,000 photos (hard links), cold\n")
        print(Table.row(["mode", "first screen", "peak RSS"]))
        print(Table.rule(3))
        for mode in ["halfblock", "sixel"] {
            let result = try bench.once(inputs.many, mode: mode)
            print(Table.row([mode, ms(result.outputSeconds), "\(result.maxResidentKilobytes / 1024) MB"]))
        }
    }

    static func ms(_ seconds: Double?, digits: Int = 0) -> String {
        guard let seconds else { return "n/a" }
        return Table.fixed(seconds * 1000, digits) + " ms"
    }

    static func ratio(_ a: Double, _ b: Double?) -> String {
        guard let b, b > 0 else { return "n/a" }
        return Table.fixed(a / b, 2) + "x"
    }
}
