/* The warpsim command line: one entry point per command, each in its own file. */
#ifndef WARPSIM_SIM_CLI_H
#define WARPSIM_SIM_CLI_H

/* Each returns the process exit status: 0 ok, 1 input or kernel error, 2 usage error.
 * argv[0] is the command name ("check"). */
int cli_check(int argc, char **argv);   /* sim/cli_check.c */
int cli_dump(int argc, char **argv);    /* sim/cli_check.c */
int cli_isa(int argc, char **argv);     /* sim/cli_check.c: the opcode table as text or markdown */
int cli_run(int argc, char **argv);     /* sim/cli_run.c */
int cli_cc(int argc, char **argv);      /* sim/cli_cc.c: build a CUDA program against warpsim's runtime */
int cli_flags(int argc, char **argv);   /* sim/cli_run.c: the run flags as text or markdown */
int cli_man(int argc, char **argv);     /* sim/cli_man.c: the man page and the shell completion scripts */
int cli_arch(int argc, char **argv);    /* sim/cli_arch.c */

#define EXIT_INPUT_ERROR 1
#define EXIT_USAGE 2

#endif
