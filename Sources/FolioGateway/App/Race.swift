/// The result of whichever operation finishes first; the others are cancelled (each must end
/// promptly on cancellation).
func race<T: Sendable>(_ operations: (@Sendable () async -> T)...) async -> T {
    await withTaskGroup(of: T.self) { group in
        for operation in operations { group.addTask(operation: operation) }
        let winner = await group.next()!
        group.cancelAll()
        return winner
    }
}
