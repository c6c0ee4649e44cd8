import Testing
@testable import PhotoGridSystem

/// The keyed "one job among everyone who asks" table the fetcher and the server share.
struct SharedJobsTests {
    final class Job: Sendable { let number: Int; init(_ number: Int) { self.number = number } }

    @Test func askersOfOneKeyJoinTheFirstJobUntilItFinishes() {
        let jobs = SharedJobs<String, Job>()
        var made = 0
        let first = jobs.join("a") { made += 1; return Job(made) }
        let second = jobs.join("a") { made += 1; return Job(made) }
        let other = jobs.join("b") { made += 1; return Job(made) }
        #expect(first.leads && !second.leads && other.leads)
        #expect(first.job === second.job && first.job !== other.job)
        #expect(made == 2)
        #expect(jobs.askers == 3)
        jobs.finish("a")
        #expect(jobs.askers == 1)
        let again = jobs.join("a") { made += 1; return Job(made) }
        #expect(again.leads && again.job.number == 3)
    }
}
