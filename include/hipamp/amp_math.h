// <amp_math.h> of C++ AMP: everything it declares is part of <hipamp/amp.h>.
#pragma once

#include <hipamp/amp.h>
