import CCurl
import SigV4
