# seq 1 300000: a long success of one shape.
seq 1 300000
