/**
 * Checking in rounds: a history too long to hold, or still growing, checked a batch at a time, in
 * memory bounded by what the next rounds can still need (Cobra's continuous verification, with
 * real time in place of its fence transactions).
 *
 * <p>Input: batches of transactions, in the order they ended, each with a watermark (no later
 * transaction starts before it). Each round checks at strict serializability the transactions kept
 * from earlier rounds with the batch, then folds away a prefix that every valid order of the whole
 * history, whatever follows, must put first, keeping only what that prefix left: each key's last
 * write (stubs, {@code FoldedState}). Output: the verdict of the whole history,
 * with the first violation found explained. Why it decides exactly what the whole check decides:
 * {@code docs/semantics.md}, "Checking in rounds".
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.rounds;
