import SQSClient
import TimelineCore
import TimelineStore
