"""English as a European tournament writes it: day, month, year and a 24-hour clock; numbers
keep Django's English (1,350.5). Django takes every name not set here from its own English."""

DATE_FORMAT = "j F Y"  # 5 December 2026
SHORT_DATE_FORMAT = "d/m/Y"  # 05/12/2026
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
FIRST_DAY_OF_WEEK = 1  # Monday
# a date typed in English is read day first, as it is shown (05/12/2026 is 5 December)
DATE_INPUT_FORMATS = ["%d/%m/%Y", "%d/%m/%y", "%Y-%m-%d", "%d %B %Y", "%d %b %Y"]
DATETIME_INPUT_FORMATS = [
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
    "%d/%m/%y %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%d/%m/%Y",
    "%Y-%m-%d",
]
