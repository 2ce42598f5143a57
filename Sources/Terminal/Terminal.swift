import CNCursesW
import TimelineUI
