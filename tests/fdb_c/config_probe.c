/* Starts contend's libfdb_c as a C program would and reports what fdb_setup_network answered
 * (the library reads CONTEND_FDB_CONFIG then). Exit 0 when the answer is the expected code.
 * Also shows that fdb_c.h is a C header.
 *   config_probe EXPECTED_CODE */
#define FDB_API_VERSION 730
#include "fdb_c.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: config_probe EXPECTED_CODE\n");
    return 2;
  }
  fdb_error_t e = fdb_select_api_version(FDB_API_VERSION);
  if (e != 0) {
    fprintf(stderr, "select_api_version: %d %s\n", e, fdb_get_error(e));
    return 1;
  }
  e = fdb_setup_network();
  printf("setup_network: %d %s\n", e, fdb_get_error(e));
  return e == atoi(argv[1]) ? 0 : 1;
}
