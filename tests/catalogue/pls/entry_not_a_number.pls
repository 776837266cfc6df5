order 3
 -1  x  1
  1  0  2
 -1 -1  0
