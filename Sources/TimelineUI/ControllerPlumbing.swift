import Foundation


