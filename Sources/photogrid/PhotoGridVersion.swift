/// What `photogrid --version` prints. Raised with each release that changes what users see.
enum PhotoGridVersion {
    static let text = "photogrid 0.1.0 (development)"
}
