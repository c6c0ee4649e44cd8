import PhotoGridSystem

/// What a connection may take of the server, beyond loopback or not: at most so many connections
/// in all and from one address; a deadline for each request once its first bytes come, so that
/// a client sending one byte a second is dropped; and one for a connection doing nothing, longer
/// than clients keep idle connections (AsyncHTTPClient 60 s, browsers less), so that a client
/// does not send a request just as the server closes (a reset, which it would not retry). Each
/// connection answers one request at a time (`ServedConnection`), so bounding a client's
/// connections bounds its requests in flight too, and the server's threads.
package struct ConnectionLimits: Sendable {
    package var total = 512
    /// One address may be many people (an office behind NAT): `--client-connections` raises it.
    package var perClient = 32
    /// Seconds for a request's head and body to arrive once its first bytes have.
    package var requestSeconds: Int64 = 15
    /// Seconds a connection may sit with no request (from its start or the last response).
    package var idleSeconds: Int64 = 75
}

/// The connections open now, in all and by address.
final class OpenConnections: Sendable {
    private let table = Locked<(total: Int, byAddress: [String: Int])>((0, [:]))

    /// Counts a new connection in; false (and not counted) when it is one too many.
    func admit(_ address: String, limits: ConnectionLimits) -> Bool {
        table.withLock { table in
            let fromThere = table.byAddress[address, default: 0]
            guard table.total < max(limits.total, limits.perClient), fromThere < limits.perClient else { return false }
            table.total += 1
            table.byAddress[address] = fromThere + 1
            return true
        }
    }

    func release(_ address: String) {
        table.withLock { table in
            table.total -= 1
            let left = table.byAddress[address, default: 1] - 1
            table.byAddress[address] = left > 0 ? left : nil
        }
    }

    var count: Int { table.withLock { $0.total } }
}
