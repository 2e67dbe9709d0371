// @ts-check
'use strict';

// The words, tags and categories the seeder builds articles from. Real English words carry the
// searches (the benchmark's q words come from them); made-up words fill the vocabulary up to about
// 2,000 so that rare words are rare, as in a real archive.

const REAL_WORDS = `
light shadow camera lens shutter aperture focus exposure frame portrait landscape wedding bride
groom couple family studio window morning evening sunset sunrise golden hour blue mist fog rain
snow winter summer autumn spring harbour river mountain valley forest meadow beach coast island
city street market bridge tower church garden orchard vineyard lake pond waterfall cliff canyon
desert field village cottage kitchen table chair flowers bouquet ribbon dress suit veil ring
gesture smile laughter tears moment story memory gallery album print paper canvas frame colour
contrast tone grain texture detail pattern line curve symmetry balance silence motion stillness
flash strobe softbox reflector diffuser tripod monopod filter sensor pixel battery card backup
archive editing culling retouch preset profile calibration monitor screen client session booking
contract invoice travel journey road train station airport hotel terrace balcony rooftop stairs
doorway corridor hallway attic cellar barn stable horse dog cat bird heron swan owl deer fox
child children mother father sister brother grandmother grandfather friend guest neighbour baker
musician dancer painter farmer fisherman sailor teacher student writer architect gardener chef
coffee bread cake wine candle lantern firelight torch moonlight starlight twilight dusk dawn noon
midnight weekend holiday festival ceremony reception speech toast dance party dinner breakfast
picnic walk hike climb swim ride wander linger pause wait listen watch notice observe compose
capture expose develop scan enlarge crop sharpen soften darken brighten warm cool fade glow shine
sparkle shimmer reflect mirror glass water stone wood metal velvet linen cotton leather wool silk
quiet gentle bright dark soft sharp warm cold clear hazy misty rainy sunny windy stormy calm wild
ancient modern simple honest natural candid formal playful serious tender patient careful curious
generous humble bold subtle vivid muted pale deep rich plain narrow wide tall small large
heavy delicate fragile sturdy rough smooth early late slow quick sudden steady lovely graceful
elegant rustic urban rural coastal alpine northern southern eastern western hidden open distant
nearby familiar strange ordinary rare precious
photograph photographer assistant second shooter angle height distance perspective foreground
background horizon skyline silhouette highlight midtone blacks whites saturation hue vibrance
clarity vignette noise sharpness bokeh depth field compression telephoto wide angle prime zoom
macro mirrorless rangefinder film digital negative slide darkroom chemistry enlarger contact
sheet proof selection delivery download slideshow website newsletter review feedback referral
planning timeline schedule checklist permit location scouting weather forecast tide moon phase
season calendar budget package pricing deposit payment gift voucher headshot business team office
corporate product food fashion editorial magazine cover poster exhibition award competition
workshop lesson course mentor beginner hobby passion craft practice habit routine patience
confidence trust comfort warmth kindness humour energy rhythm flow harmony emotion feeling
atmosphere mood drama mystery wonder joy grief hope promise beginning ending chapter season
`;

const FUNCTION_WORDS = (
  'the a and of to in with for on at from by as is are was it this that we our you your but or ' +
  'when then before after every each one two into over under between through while because so'
).split(' ');

// Syllables for the made-up words; chosen so the words look pronounceable.
const ONSETS = [
  'b',
  'br',
  'c',
  'cl',
  'd',
  'dr',
  'f',
  'fl',
  'g',
  'gr',
  'h',
  'k',
  'l',
  'm',
  'n',
  'p',
  'pr',
  'r',
  's',
  'st',
  't',
  'tr',
  'v',
  'w',
  'z',
];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
const CODAS = ['', 'n', 'r', 'l', 's', 'm', 'nd', 'rt', 'st', 'x'];

/** Ordered so that the exclusion of any tag from another tag's text is easy to check (see pickTagsForBench). */
const TAGS = [
  'Wedding',
  'Golden hour',
  'Portrait',
  'Studio',
  'Lighting',
  'Headshot',
  'Business',
  'Landscape',
  'Fog',
  'Dawn',
  'Outdoor',
  'Night',
  'Astro',
  'Editing',
  'Workflow',
  'Gear',
  'Rain',
  'Umbrellas',
  'Family',
  'Newborn',
  'Engagement',
  'Elopement',
  'Black and white',
  'Film',
  'Analog',
  'Travel',
  'Street',
  'Architecture',
  'Interior',
  'Food',
  'Product',
  'Fashion',
  'Editorial',
  'Drone',
  'Macro',
  'Wildlife',
  'Birds',
  'Winter',
  'Summer',
  'Autumn',
  'Spring',
  'Beach',
  'Mountains',
  'Forest',
  'City',
  'Village',
  'Pets',
  'Horses',
  'Flash',
  'Natural light',
  'Retouching',
  'Printing',
  'Albums',
  'Clients',
  'Pricing',
  'Workshop',
  'Tutorial',
  'Behind the scenes',
  'Colour grading',
  'Composition',
];

const CATEGORIES = [
  { name: 'Weddings', slug: 'weddings', weight: 22 },
  { name: 'Portraits', slug: 'portraits', weight: 18 },
  { name: 'Landscapes', slug: 'landscapes', weight: 14 },
  { name: 'Behind the scenes', slug: 'behind-the-scenes', weight: 10 },
  { name: 'Families', slug: 'families', weight: 12 },
  { name: 'Travel', slug: 'travel', weight: 9 },
  { name: 'Gear and technique', slug: 'gear-and-technique', weight: 8 },
  { name: 'Business', slug: 'business', weight: 7 },
];

const AUTHORS = ['Anna Berg', 'Jonas Weber', 'Mira Okafor', 'Luca Rossi', 'Sofia Lind', 'Tom Becker', 'Ines Duarte', 'Karl Jansen'];

const VOCABULARY_SIZE = 2000;

function realWords() {
  return [...new Set(REAL_WORDS.split(/\s+/).filter((word) => word !== ''))];
}

/** The full vocabulary: the real words and made-up words, shuffled so both occur at every frequency. */
function buildVocabulary(random) {
  const real = realWords();
  const seen = new Set([...real, ...FUNCTION_WORDS]);
  const madeUp = [];
  while (real.length + madeUp.length < VOCABULARY_SIZE) {
    const syllables = random.int(2, 3);
    let word = '';
    for (let i = 0; i < syllables; i += 1)
      word += random.pick(ONSETS) + random.pick(NUCLEI) + (i === syllables - 1 ? random.pick(CODAS) : '');
    if (word.length >= 4 && !seen.has(word)) {
      seen.add(word);
      madeUp.push(word);
    }
  }
  const words = random.shuffled([...real, ...madeUp]);
  return { words, real: new Set(real) };
}

module.exports = { FUNCTION_WORDS, TAGS, CATEGORIES, AUTHORS, buildVocabulary, realWords };
