import Foundation
import ListenUpCore
#if canImport(Glibc)
import Glibc
#endif

extension DiskSpace {
    /// `statvfs(3)`: blocks available to unprivileged users × fragment size,
    /// on the file system of the folder or its nearest existing ancestor.
    public static let live = DiskSpace { folder in
        var path = folder.standardizedFileURL.path
        var info = statvfs()
        while statvfs(path, &info) != 0 {
            guard errno == ENOENT, path != "/" else { return nil }
            path = (path as NSString).deletingLastPathComponent
            if path.isEmpty { path = "/" }
        }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
