/**
 * The last resort of an exit that cannot wait for a graceful close: every
 * server process tree this process started and has not ended, SIGKILLed
 * now, synchronously (lib/session/live_trees.ts keeps the registry; it also
 * runs by itself when the process unloads or dies of an uncaught error).
 * No exit path leaves a server process alive.
 *
 * @module
 */

export { killAllTrees as killAllServers } from "../session/live_trees.ts";
