import os,sys,time
sys.path.insert(0,'/work/main'); os.chdir('/work/main'); os.environ.setdefault("DJANGO_SETTINGS_MODULE","recmem_site.settings.base")
import django; django.setup()
from bench.pii import make_masker, load_presidio_research
from bench.management.commands.bench_pii import typical_exchanges
from pathlib import Path
from governance.privacy import engine
from governance.privacy.recognizers import names
recs=load_presidio_research(Path("/work/shared/datasets/presidio_research/synth_pii_dev.json"))
texts=typical_exchanges([r.text for r in recs], 600)
m=make_masker(); m(["warm-up Jane Doe"])
orig_gn=names.PersonHeuristicRecognizer._given_names; orig_lr=names._LOWER_ADDRESSED_RE
orig_inf=engine._hosts_infrastructure
def before():
    names.PersonHeuristicRecognizer._given_names=staticmethod(lambda *a: None); engine._hosts_infrastructure=lambda *a: False
def after():
    names.PersonHeuristicRecognizer._given_names=staticmethod(orig_gn); engine._hosts_infrastructure=orig_inf
res={"before":[], "after":[]}
for rep in range(3):
    for name,f in (("before",before),("after",after)):
        f(); t=time.process_time()
        for i in range(0,len(texts),64): m(texts[i:i+64])
        res[name].append(len(texts)/(time.process_time()-t))
print({k:[round(x,1) for x in v] for k,v in res.items()})
import statistics; print("ratio after/before (median):", round(statistics.median(res["after"])/statistics.median(res["before"]),3))
