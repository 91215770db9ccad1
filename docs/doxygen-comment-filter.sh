#!/bin/sh
# Doxygen input filter: hipamp's headers explain each declaration in the // comment lines
# above it; turning those whole-line comments into /// makes them its documentation.
# Comments after code on the same line stay plain.
exec sed -e 's|^\([[:space:]]*\)//\([^/]\)|\1///\2|' -e 's|^\([[:space:]]*\)//$|\1///|' "$1"
