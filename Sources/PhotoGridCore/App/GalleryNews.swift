/// What a reader of the gallery working on a thread of its own has to tell the event loop: a
/// folder read further or to its end, dates or ratings read, a remote gallery changed. Posted
/// to the mailbox; the controller takes each (`GridController.take`), so that a frame only reads
/// the state and polls nothing.
package enum GalleryNews: Equatable, Sendable {
    /// More of the folder (or remote tree) is read, or all of it.
    case folderRead
    /// Capture dates read, for the date order, sections by day and month, the time zoom.
    case datesRead
    /// Ratings read, for a rating filter.
    case ratingsRead
    /// A remote gallery changed on its server, or asking for it again failed.
    case galleryChanged
    /// Photos came or went in the folders watched (`FolderWatch`).
    case foldersChanged
    /// Bursts found (`StackScan`).
    case stacksFound
}
