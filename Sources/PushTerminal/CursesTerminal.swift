import CNCursesW
