import PhotoGridCore

/// Remote galleries: `photogrid --url` (Client/) and `photogrid serve` (Server/).
public enum Remote {}
