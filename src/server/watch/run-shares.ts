/**
 * A minute-cron run's share of work, so that the heaviest run (a deployment's first: ten feeds changed, their new
 * posts proposed, the reviewer told) stays inside the Workers Free plan's 10 ms of CPU (`npm run bench`,
 * docs/watch.md). What is left over is taken up by the next minute's run, the longest waiting first.
 */

/**
 * Changed feed text read (parsed) per run, in characters: about 2 ms of CPU at the 40 KB a millisecond the XML
 * parser reads (an Atom feed of 20 posts with their HTML is about 60 KB); the first changed feed is read whatever
 * its size, which the fetch caps.
 */
export const READ_BUDGET_PER_RUN = 64 * 1024;
/** The largest feed the worker reads: a bigger one is a failing source ("is too large"). */
export const FEED_MAX_BYTES = 256 * 1024;
/** New posts checked against the recorded events and stored per run (each may read one record shard). */
export const PROPOSALS_PER_RUN = 5;
/** Review messages sent per run (each is a subrequest; a run has 50). */
export const REVIEW_SENDS_PER_RUN = 3;
