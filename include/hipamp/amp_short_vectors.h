// <amp_short_vectors.h> of C++ AMP: everything it declares is part of <hipamp/amp.h>.
#pragma once

#include <hipamp/amp.h>
