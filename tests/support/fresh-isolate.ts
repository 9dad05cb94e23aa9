import { forgetLoadedData } from '../../src/server/data-source.ts';
import { forgetVapidAuthorizations } from '../../src/server/delivery/channels/push/vapid-authorization.ts';

/**
 * A setup file of the in-process projects: every file starts as a fresh isolate does, with no data file loaded
 * and no VAPID token signed.
 * The files share one module graph per worker (`isolate: false`), and the loader keeps what it read per path;
 * a file that read `/data/board.json` last would otherwise hand its data set to the next file in that worker (a
 * test of a broken data file then read the previous file's good one, in one run of three).
 */
forgetLoadedData();
forgetVapidAuthorizations();
