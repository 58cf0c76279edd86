import Foundation
import JSONToolkit
import ListenUpCore

extension LoadingModel: HeadlessScreen {
    var snapshot: JSONValue { [:] }
}
