#pragma once

struct VbasCommandLine;

// The commands of vbas_process. Each needs a running VbasHeadlessSession, prints its result and
// returns the process exit code: 0 on success, 1 on failure (with the error on stderr).

/** Lists every registered algorithm by provider (as JSON with --json). */
int vbasListAlgorithms(const VbasCommandLine& commandLine);
/** Describes an algorithm: its help, parameters (type, optional, default, choices) and outputs. */
int vbasShowHelp(const VbasCommandLine& commandLine);
/**
 * Runs an algorithm: rejects unknown and missing parameters, checks the values with the algorithm's
 * checkParameterValues(), runs it and prints the results (or, with --json, inputs, results and log).
 */
int vbasRunAlgorithm(const VbasCommandLine& commandLine);
