# cmake -DIN=file -DOUT=file.c -DNAME=symbol -P Embed.cmake: a file as a C string and its length.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR len "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUT}" "/* Generated from ${IN}; do not edit. */\n#include <stddef.h>\n"
  "const char ${NAME}[] = {${bytes} 0};\nconst size_t ${NAME}_len = ${len};\n")
