order 3
 -1  2  1
  1  0  2
