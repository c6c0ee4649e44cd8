import Testing
@testable import PhotoGridRemote
