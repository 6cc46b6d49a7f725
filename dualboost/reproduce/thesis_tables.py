"""placeholder"""
from .base import Experiment


class ThesisTables(Experiment):
    name = "thesis-tables"
    title = "Tables 5.4-5.9"
