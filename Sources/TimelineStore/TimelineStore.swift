import CSQLite
import TimelineCore
