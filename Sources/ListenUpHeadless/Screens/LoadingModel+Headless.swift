import Foundation
import ListenUpCore

extension LoadingModel: HeadlessScreen {
    var snapshot: JSONValue { [:] }
}
