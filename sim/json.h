/* Helpers for the JSON warpsim writes (--json's report, --timeline's trace): sim/json.c. */
#ifndef WARPSIM_SIM_JSON_H
#define WARPSIM_SIM_JSON_H

#include <stdio.h>

/* `s` as a JSON string, quoted: quotes and backslashes escaped, control characters and DEL as \u00XX. */
void ws_json_string(FILE *f, const char *s);

#endif
