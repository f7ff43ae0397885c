/** `npm run fake:weather`: the Open-Meteo fake on its own, for running the app with no internet. */
import { startFakeOpenMeteo } from "./open-meteo";

const port = Number(process.env.FAKE_WEATHER_PORT ?? 8787);
const fake = await startFakeOpenMeteo({ port });
console.log(`Fake Open-Meteo on ${fake.url}. Start the app with:`);
console.log(`  OPEN_METEO_FORECAST_URL=${fake.url} OPEN_METEO_GEOCODING_URL=${fake.url} OPEN_METEO_AIR_QUALITY_URL=${fake.url} npm start`);
process.on("SIGINT", () => void fake.close().then(() => process.exit(0)));
process.on("SIGTERM", () => void fake.close().then(() => process.exit(0)));
