/**
 * A small vault of notes on distinct everyday topics, each with a planted unique token and a
 * question that paraphrases it without sharing a content word (paraphrase.test.ts checks that):
 * a keyword index cannot answer these, a sentence model should.
 */
import type { Note } from '../../kernel/note.js';

export interface ParaphraseCase {
  title: string;
  content: string;
  question: string;
  /** A made-up word found in this note only. */
  token: string;
}

const CASES: Array<[title: string, content: string, question: string]> = [
  [
    'Sourdough starter',
    'Feed the starter with equal weights of flour and water every morning. Shape the dough, let it rise overnight in the fridge, then bake it in a preheated cast iron pot.',
    'What routine keeps a wild yeast culture healthy for homemade loaves?',
  ],
  [
    'Fixing a flat bicycle tyre',
    'Lever the tyre off the rim, find the hole in the inner tube by listening for escaping air, patch it, and pump it back to the pressure printed on the sidewall.',
    'How can I repair a punctured wheel on my bike?',
  ],
  [
    'Monstera care',
    'Water the monstera only when the top soil is dry, keep it out of direct sun, and wipe the big leaves so they stay glossy. Yellow leaves usually mean too much water.',
    'Why are my indoor plant foliage turning pale, and how often should it be irrigated?',
  ],
  [
    'Filing the annual tax return',
    'Collect receipts for deductible expenses, the employer income statement and bank interest before the April deadline. Charitable donations lower what is owed.',
    'Which paperwork do I need to gather when declaring earnings to the government each year?',
  ],
  [
    'Marathon training plan',
    'Build the weekly mileage slowly, one long run every Sunday, tapering in the final three weeks before the race. Hydrate and eat carbohydrates on the longest days.',
    'How should I prepare my body for a 42 kilometre running event?',
  ],
  [
    'Teaching the dog to come back',
    'Practise recall with treats in a quiet garden first, use a long lead in the park, and never call the puppy to punish it.',
    'What is the best way to get my pet to return when I shout its name outdoors?',
  ],
  [
    'Jump-starting a car',
    'Connect the red clamp to the dead battery positive terminal, then to the donor, black to the donor negative and to bare metal on the stalled engine. Start the donor first.',
    'My vehicle will not turn over because its power cell is drained: what are the steps with cables from another motorist?',
  ],
  [
    'Python virtual environments',
    'Create an isolated environment with venv, activate it, and install packages with pip so each project keeps its own library versions.',
    'How do I stop dependencies from different coding projects clashing on my laptop?',
  ],
  [
    'Knitting a first scarf',
    'Cast on thirty stitches with chunky wool and large needles, knit every row in garter stitch, and bind off when it is long enough to wrap twice.',
    'Which beginner handicraft technique lets me make a warm neck garment from yarn?',
  ],
  [
    'Wedding budget',
    'The venue and catering take half the money; photographer, dress, flowers and rings take most of the rest. Keep ten percent aside for surprises.',
    'How much should a couple reserve for their marriage celebration and where does the cash go?',
  ],
  [
    'Guitar chords for beginners',
    'Learn G, C, D and E minor first; press the strings just behind the frets and strum slowly until each chord rings clearly.',
    'Which shapes should someone new to playing a six stringed instrument practise?',
  ],
  [
    'Solar panels on the roof',
    'South facing photovoltaic modules with an inverter pay back in about eight years; a home battery stores daytime electricity for the evening.',
    'Is it worth putting sunlight powered energy generators on a house?',
  ],
  [
    'Composting kitchen scraps',
    'Mix green scraps like peelings and coffee grounds with brown cardboard and dry leaves, turn the heap monthly, and keep it as damp as a wrung sponge.',
    'How do I convert food waste into rich garden soil?',
  ],
  [
    'Sleep hygiene',
    'Go to bed at the same hour, keep the bedroom dark and cool, avoid screens and caffeine in the evening, and get up if you lie awake for long.',
    'What habits help someone who struggles with insomnia at night?',
  ],
  [
    'Chess openings',
    'Control the centre with pawns, develop knights before bishops, castle early, and do not move the queen out too soon.',
    'What principles should guide the first moves of a board game between two armies of sixty four squares?',
  ],
  [
    'Beekeeping basics',
    'Inspect the hive every week in spring for the queen, eggs and swarm cells; harvest honey in late summer and leave enough for the colony over winter.',
    'How do I look after a box of pollinating insects that make a sweet syrup?',
  ],
  [
    'Refinancing the mortgage',
    'When interest rates fall, a new home loan at a lower rate can cut monthly repayments; compare arrangement fees and early repayment penalties first.',
    'Should we switch our house lending deal to a cheaper bank?',
  ],
  [
    'Camping checklist',
    'Pack the tent, sleeping bag, stove, head torch, water filter and a first aid kit; check the weather forecast and tell someone your route.',
    'What equipment do I bring for a night resting outdoors in the wilderness?',
  ],
  [
    'Pour-over coffee',
    'Use fifteen grams of medium-fine ground beans per 250 ml, water just off the boil, bloom for thirty seconds, then pour in slow circles.',
    'How do I make a good cup of java with a filter cone by hand?',
  ],
  [
    'Learning kanji',
    'Study radicals first, review with spaced repetition flashcards daily, and write each character by stroke order to remember it.',
    'What is an efficient method for memorising Japanese written symbols?',
  ],
  [
    'Exposure triangle',
    'Aperture controls depth of field, shutter speed freezes or blurs motion, and ISO sets sensor sensitivity; changing one means balancing the other two.',
    'How do the settings on a camera work together to get a bright enough picture?',
  ],
  [
    'Leaky tap',
    'Turn off the supply under the sink, unscrew the handle, replace the worn washer or cartridge, and reassemble; a drip wastes litres a day.',
    'The faucet in my bathroom keeps dripping: how do I repair it myself?',
  ],
  [
    'Feeding a newborn',
    'Offer milk every two to three hours, watch for rooting and sucking cues, burp halfway through, and count wet nappies to know the infant drinks enough.',
    'How often should a baby be nourished during its first weeks?',
  ],
  [
    'Stargazing with a telescope',
    'Let the eyes adapt to darkness for twenty minutes, start with the Moon and Jupiter, and use a star chart app to find nebulae far from city lights.',
    'What should a beginner look at in the night sky through a magnifying optical instrument?',
  ],
  [
    'Job interview preparation',
    'Research the company, prepare stories using the STAR method, rehearse answers about strengths and weaknesses, and have questions for the panel.',
    'How can I get ready to impress a hiring manager when applying for a position?',
  ],
  [
    'Pension savings',
    'Contribute enough to get the full employer match, raise contributions with each pay rise, and move to lower risk funds as retirement nears.',
    'How much money should I put away for when I stop working in old age?',
  ],
  [
    'Cycling the aquarium',
    'Before adding fish, grow bacteria that convert ammonia to nitrite and nitrate; test the water weekly until ammonia and nitrite read zero.',
    'How do I prepare a new aquatic tank so pets do not die?',
  ],
  [
    'Daily meditation',
    'Sit comfortably for ten minutes, follow the breath, and when the mind wanders notice it without judgement and return to breathing.',
    'What is a simple mindfulness practice to calm anxious thoughts?',
  ],
  [
    'Wine tasting',
    'Look at the colour, swirl to release aromas, smell, then sip and note acidity, tannin, sweetness and the length of the finish.',
    'How do sommeliers evaluate a glass of red or white?',
  ],
  [
    'Winter tyres',
    'Fit cold weather tyres when temperatures drop below seven degrees; their softer rubber and deeper tread grip snow and ice far better.',
    'Do I need special wheels on my automobile for icy roads?',
  ],
  [
    'Password manager',
    'Store a unique random password for every account in an encrypted vault, protect it with one long passphrase, and enable two factor authentication.',
    'How can I keep my online logins secure without remembering dozens of secret codes?',
  ],
  [
    'Growing tomatoes',
    'Sow seeds indoors in March, plant out after the last frost in full sun, tie the stems to canes, and pinch out side shoots for bigger fruit.',
    'When and how should I cultivate juicy red salad vegetables in my backyard?',
  ],
];

export function paraphraseCases(): ParaphraseCase[] {
  return CASES.map(([title, content, question], i) => {
    const token = `vexq${i + 1}zor`;
    return { title, content: `${content}\n\nReference ${token}.`, question, token };
  });
}

/** The cases as the notes of a vault, in order: `general/note-1.md`, … */
export function paraphraseNotes(cases: readonly ParaphraseCase[] = paraphraseCases()): Note[] {
  return cases.map((c, i) => ({
    id: `general/note-${i + 1}.md`,
    title: c.title,
    content: c.content,
    tags: [],
    metadata: {},
    created: '2026-01-01T00:00:00.000Z',
    updated: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z`,
    type: 'general',
    contentHash: `sha256:${i}`,
  }));
}
