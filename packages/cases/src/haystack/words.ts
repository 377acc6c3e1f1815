/**
 * Word lists for the synthetic filler. Everything here is invented for CrucibleForge: a river town's
 * chronicle, a depot's operations log and a warehouse ledger. Numbers in the filler stay small and
 * plain so they rarely collide with an answer (verify checks that they never do).
 */

export const PEOPLE = [
  'Marta Ilves', 'Tobin Arkwright', 'Suvi Halloran', 'Denzel Okafor', 'Priya Castellan', 'Oskar Brennholt',
  'Lena Moravec', 'Idris Pellham', 'Ginevra Holt', 'Kasimir Dunne', 'Ama Wrexley', 'Feodor Quill',
  'Hesper Vantongeren', 'Rui Calloway', 'Nell Thackeray', 'Bartholomew Esk', 'Yusra Penhallow', 'Corin Achterberg',
  'Wilhelmina Strand', 'Jonah Ferraby', 'Anouk Delacroix-Hale', 'Teodor Marsh', 'Ilse Barrowclough', 'Emeka Lindqvist',
];

export const TOWN_GROUPS = [
  'the ferrymen of Ostrel', 'the lamplighters', 'the miller\'s council', 'the weavers\' guild', 'the harbour wardens',
  'the schoolmistress and her pupils', 'the night watch', 'the brewers on Tannery Lane', 'the orchard keepers',
  'the bell ringers', 'the salt traders', 'the chapel choir', 'the rope makers', 'the toll clerks', 'the fishwives',
];

export const TOWN_DEEDS = [
  'repainted the landing posts', 'argued over the price of lamp oil', 'mended the north sluice gate',
  'counted the geese on the common', 'rehung the market awnings', 'cleared reeds from the mill race',
  'tarred the bottoms of the punts', 'recited the old boundary rhyme', 'carried lanterns along the towpath',
  'swept the chapel steps', 'traded wool for river clay', 'planted willows along the embankment',
  'rebuilt the fence by the tannery', 'hosted a supper for the bargemen', 'measured the flood marks on the quay',
  'repaired the clock above the corn exchange', 'gathered rushes for thatching', 'drained the cellar of the inn',
];

export const TOWN_TIMES = [
  'In the first week of the thaw', 'On a grey morning', 'Late in the harvest month', 'During the long rains',
  'At the turn of the season', 'Before the spring fair', 'On the eve of the lantern walk', 'In the middle of the dry spell',
  'Soon after the river rose', 'When the frost lifted', 'On market day', 'In the quiet weeks after midsummer',
];

export const TOWN_TAILS = [
  '', '', '', 'while the gulls circled overhead', 'though few people noticed', 'as their grandparents had done',
  'to the amusement of the children', 'without much complaint', 'and then went home early', 'in spite of the wind',
];

export const TOWN_REMARKS = [
  'The weather held fair for most of the day.', 'Nobody could remember a quieter season.',
  'The baker sold out of rye loaves by noon.', 'A brass band practised behind the warehouse.',
  'The ferry ran late twice because of fog.', 'Smoke from the kilns drifted across the water meadows.',
  'Several families walked to the ridge to watch the sunset.', 'The parish notice board was covered in new handbills.',
  'A stray dog followed the postman for most of his round.', 'The mill wheel turned slowly in the low water.',
];

export const DEPOT_SITES = ['depot-north', 'depot-east', 'yard-7', 'dock-b', 'cold-store', 'gatehouse', 'hangar-2', 'workshop'];

export const DEPOT_EVENTS = [
  'forklift battery swapped', 'pallet jack inspected', 'loading bay doors cycled', 'fire extinguisher tags checked',
  'conveyor belt tension adjusted', 'shift handover completed', 'floor markings repainted', 'dock leveller lubricated',
  'scanner firmware refreshed', 'spill kit restocked', 'racking upright inspected', 'visitor badge audit finished',
  'roller shutter sensor cleaned', 'cardboard baler emptied', 'temperature probe calibrated', 'safety walk logged',
];

export const DEPOT_NOTES = [
  'no issues found', 'minor wear noted', 'follow-up not required', 'photos attached to the ticket', 'as scheduled',
  'completed ahead of plan', 'supervisor informed', 'parts on order', 'checked twice', 'logged by the night crew',
];

export const LEDGER_ITEMS = [
  'galvanised hinges', 'oak dowels', 'brass door knobs', 'canvas tarpaulins', 'copper rivets', 'rubber grommets',
  'steel brackets', 'linen sacks', 'ceramic insulators', 'pine shelving boards', 'zinc washers', 'jute twine',
  'glass jars with lids', 'enamel mugs', 'wax candles', 'wool blankets', 'tin buckets', 'hemp rope coils',
];

export const LEDGER_SUPPLIERS = [
  'Marlow Supply', 'Greyfield & Sons', 'Harrow Works', 'Quayside Traders', 'Pennant Mercantile', 'Old Mill Hardware',
  'Bellweather Goods', 'Ashcombe Wholesale', 'Tidewater Provisions', 'Kestrel Fittings',
];

export const LEDGER_CONDITIONS = ['condition good', 'two cartons dented', 'labels faded', 'stored dry', 'shrink wrap intact', 'recounted on arrival'];
