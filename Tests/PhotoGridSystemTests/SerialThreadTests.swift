import Testing
@testable import PhotoGridSystem

/// Closures in order on a thread of their own, `sync` waiting for its own and what came before.
@Suite struct SerialThreadTests {
    @Test func closuresRunInTheOrderGivenAndSyncWaitsForThem() {
        let queue = SerialThread()
        let seen = Locked<[Int]>([])
        for number in 0..<200 { queue.async { seen.withLock { $0.append(number) } } }
        let count = queue.sync { seen.withLock { $0.count } }
        #expect(count == 200)
        #expect(seen.withLock { $0 } == Array(0..<200))
    }

    /// `sync`'s closure may use what its caller holds: a value of the caller's, changed in place.
    @Test func syncRunsAClosureThatDoesNotEscape() {
        let queue = SerialThread()
        var total = 0
        for number in 1...100 { total = queue.sync { total + number } }
        #expect(total == 5050)
    }

    /// Many threads asking at once each get their own answer.
    @Test func syncFromManyThreadsAtOnce() {
        let queue = SerialThread()
        let answers = Locked<[Int: Int]>([:])
        let finished = Pending<Bool>()
        let left = Locked(8)
        for thread in 0..<8 {
            WorkerThreads.start {
                for step in 0..<50 {
                    let answer = queue.sync { thread * 1000 + step }
                    answers.withLock { $0[thread * 1000 + step] = answer }
                }
                if left.withLock({ $0 -= 1; return $0 == 0 }) { finished.fulfil(true) }
            }
        }
        #expect(finished.wait(milliseconds: 20_000) == true)
        #expect(answers.withLock { $0.count } == 400 && answers.withLock { $0.allSatisfy { $0.key == $0.value } })
    }
}
