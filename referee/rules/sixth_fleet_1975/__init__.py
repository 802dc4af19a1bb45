"""SPI *Sixth Fleet* (1975). Case numbers in docstrings refer to that rulebook."""
