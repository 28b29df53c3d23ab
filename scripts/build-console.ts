// Builds the web console into packages/server/src/console/dist (make setup runs this).
import { buildConsole, CONSOLE_DIST } from '../packages/server/src/console/build.ts';

const { script, style } = await buildConsole();
console.log(`console built: ${CONSOLE_DIST} (${script}, ${style})`);
