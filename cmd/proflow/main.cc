#include "cmd/proflow/cli.h"

int main(int argc, char** argv) { return proflow::cliMain(argc, argv); }
