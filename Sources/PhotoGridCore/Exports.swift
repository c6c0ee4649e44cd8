// The app on top of the stages below it: what the executable, the tools and the tests import
// (`import PhotoGridCore`) brings every stage. The stages themselves import only what lies below
// them (Package.swift).
@_exported import GalleryFormats
@_exported import PhotoGridCanvas
@_exported import PhotoGridCatalog
@_exported import PhotoGridDecoding
@_exported import PhotoGridDiskCache
@_exported import PhotoGridGallery
@_exported import PhotoGridLoading
@_exported import PhotoGridMetadata
@_exported import PhotoGridModel
@_exported import PhotoGridPipeline
@_exported import PhotoGridSystem
@_exported import PhotoGridTerminal
